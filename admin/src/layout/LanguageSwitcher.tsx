import { useState } from 'react';
import { ToggleButton, ToggleButtonGroup, Tooltip } from '@mui/material';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import { I18N_CODE, WIRE_LANGS, wireLangOf, type WireLang } from '../i18n';
import { request } from '../api/http';
import { getSession, setSession } from '../api/session';
import { loadMeta } from '../meta/store';
import { rememberLang } from '../lang';

/** What the switch shows for each language (spec: uz / Ўз / ru). */
export const LANG_LABEL: Record<WireLang, string> = { uz: 'uz', uk: 'Ўз', ru: 'ru' };
/** The language each button's words are in, for a screen reader's voice. */
const LANG_TAG: Record<WireLang, string> = { uz: 'uz-Latn', uk: 'uz-Cyrl', ru: 'ru' };

/**
 * Uzbek Latin, Uzbek Cyrillic, Russian. Signed in, a switch fetches /api/meta in the new language
 * (menu, captions, field labels), stores the choice with admin/app/setlang and then swaps
 * react-admin's messages; on the sign-in page only the messages change.
 */
export function LanguageSwitcher({ color = 'inherit' }: { color?: 'inherit' | 'primary' }) {
  const [locale, setLocale] = useLocaleState();
  const translate = useTranslate();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const lang = wireLangOf(locale);

  const change = async (next: WireLang | null) => {
    if (!next || next === lang || busy) return;
    setBusy(true);
    try {
      const session = getSession();
      if (session) {
        await loadMeta(next);
        request('/api/admin/app/setlang', { method: 'POST', body: { lang: next } })
          .then(() => setSession({ ...session, user: { ...session.user, lang_code: next } }))
          .catch(() => undefined);
      }
      rememberLang(next);
      setLocale(I18N_CODE[next]);
    } catch (err) {
      notify(err instanceof Error ? err.message : 'admin.errors.meta_failed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Tooltip title={translate('admin.lang.label')}>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={lang}
        onChange={(_e, v: WireLang | null) => void change(v)}
        aria-label={translate('admin.lang.label')}
        data-testid="lang-switcher"
        sx={
          color === 'inherit'
            ? {
                mx: 1,
                '& .MuiToggleButton-root': {
                  color: 'inherit',
                  borderColor: 'rgba(255,255,255,0.5)',
                  px: 1.2,
                  py: 0.2,
                  textTransform: 'none',
                  fontWeight: 600,
                },
                // the chosen language white with the bar's dark green (a white tint on the green gave 4.3:1)
                '& .MuiToggleButton-root.Mui-selected, & .MuiToggleButton-root.Mui-selected:hover': {
                  bgcolor: '#fff',
                  color: 'primary.dark',
                },
              }
            : { '& .MuiToggleButton-root': { px: 1.5, py: 0.3, textTransform: 'none', fontWeight: 600 } }
        }
      >
        {WIRE_LANGS.map((l) => (
          // named by what it shows and the language's name ("uz — Oʻzbekcha"): the visible words are in the name
          <ToggleButton
            key={l}
            value={l}
            disabled={busy}
            lang={LANG_TAG[l]}
            aria-label={`${LANG_LABEL[l]} — ${translate(`admin.lang.${l}`)}`}
            data-testid={`lang-${l}`}
          >
            {LANG_LABEL[l]}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
    </Tooltip>
  );
}
