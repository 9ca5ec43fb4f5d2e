import { sweepTest } from './sweep-test';

/** The sweep of every screen in ru: the lists and row pages in Russian (e2e/sweep-test.ts). */
sweepTest('ru');
