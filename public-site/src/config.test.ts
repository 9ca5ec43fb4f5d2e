import { afterEach, describe, expect, it } from 'vitest';
import { contacts } from './config';

/** The site's contacts are the settings the server writes into the page, and nothing when unset (issue 29: no made-up number). */
const g = globalThis as unknown as { window?: { __ECOFOND_CONFIG__?: Record<string, string> } };
afterEach(() => {
  delete g.window;
});

describe('contacts()', () => {
  it('shows nothing made up when the settings are unset or blank', () => {
    expect(contacts()).toEqual({ hotline: null, tel: null, email: null });
    g.window = { __ECOFOND_CONFIG__: { hotline: '  ', email: '' } };
    expect(contacts()).toEqual({ hotline: null, tel: null, email: null });
  });

  it('takes the hotline and e-mail of the settings, the number dialled without its spaces', () => {
    g.window = { __ECOFOND_CONFIG__: { hotline: ' +998 71 239-41-10 ', email: 'info@ecofond.uz' } };
    expect(contacts()).toEqual({ hotline: '+998 71 239-41-10', tel: '+998712394110', email: 'info@ecofond.uz' });
    g.window = { __ECOFOND_CONFIG__: { hotline: '1077' } };
    expect(contacts().tel).toBe('1077');
  });
});
