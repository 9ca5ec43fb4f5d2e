import { sweepTest } from './sweep-test';

/** The sweep of every screen in uk: the lists and row pages in Uzbek Cyrillic (e2e/sweep-test.ts). */
sweepTest('uk');
