import { sweepTest } from './sweep-test';

/** The sweep of every screen in uz: with the create screens and the forms behind each edit button (e2e/sweep-test.ts). */
sweepTest('uz');
