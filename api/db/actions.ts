import type { Knex } from 'knex';
import type { MetaModel } from '../meta/types.ts';
import { LANGS } from '../meta/types.ts';
import { translate } from '../meta/captions.ts';

/**
 * The action catalogue (`app_actions`) of a model: the seed writes it at every run, a reference
 * book's write (api/engine/books.ts) when the book's actions change.
 */
/** The action catalogue follows the metadata; each action is named in three languages from its captions. */
export async function syncActions(knex: Knex, model: MetaModel): Promise<void> {
  const rows = [...model.actions].map(([id, a]) => {
    const name = Object.fromEntries(
      LANGS.map((lang) => {
        const own = translate(model, lang, a.caption);
        return [lang, a.entityCaption ? `${translate(model, lang, a.entityCaption)} — ${own}` : own];
      }),
    );
    return { id, caption: a.caption, name: JSON.stringify(name), module: a.module, kind: a.kind };
  });
  for (let i = 0; i < rows.length; i += 500) {
    await knex('app_actions')
      .insert(rows.slice(i, i + 500))
      .onConflict('id')
      .merge(['caption', 'name', 'module', 'kind']);
  }
}
