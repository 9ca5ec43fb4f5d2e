import type { Hook, RouteHandler } from '../types.ts';
import type { AppContext } from '../../http/middleware.ts';
import { badRequest, ERROR_CODES, notFound } from '../../kernel/errors.ts';
import { translate } from '../../meta/captions.ts';
import { bookToSpec, specFieldOf, specProblems, specToBook, type BookProblem, type BookSpec } from '../../meta/books.ts';
import { readBooks } from '../../meta/live.ts';
import { BookInvalid, bookRemoved, bookSaved, deleteBook, problemText, saveBook } from '../../engine/books.ts';
import type { MetaModel } from '../../meta/types.ts';

/**
 * The reference books screen's calls (docs/reference-books.md): the books held in the database,
 * one book as the screen edits it, save (make or change) and remove. The work is the engine's
 * (api/engine/books.ts); a definition that does not check answers 400 with the loader's problems,
 * each beside the screen's field it concerns.
 */
export const BOOK_HANDLERS: Record<string, RouteHandler> = {
  'system.books': async (ctx, { knex, model, lang }) => {
    const books = await readBooks(knex);
    ctx.body = books.map((b) => ({
      name: b.name,
      section: b.menu?.section ?? String(b.definition.module),
      caption: translate(model, lang, `entity.${b.name}`),
      path: model.entities.get(b.name)?.path,
      fields: Object.keys((b.definition.fields ?? {}) as object).length,
    }));
  },
  'system.book': async (ctx, { knex, params }) => {
    const book = (await readBooks(knex)).find((b) => b.name === params.name);
    if (!book) throw notFound();
    ctx.body = bookToSpec(book);
  },
  'system.saveBook': async (ctx, { knex, live, model, principal, lang }) => {
    if (!live) throw new Error('the reference books screen needs the reloadable model');
    const spec = specOf(ctx.request.body);
    const own = specProblems(spec);
    if (own.length) return invalid(ctx, model, lang, spec, own);
    const access = { read: 0, create: 0, update: 0, delete: 0, export: 0 };
    try {
      const book = specToBook(spec, access);
      delete (book.definition as { access?: unknown }).access;
      const saved = await saveBook({ knex, live, principal: principal!, lang }, book);
      ctx.body = { ...bookToSpec(saved), path: live.current.entities.get(saved.name)?.path };
    } catch (err) {
      if (err instanceof BookInvalid) return invalid(ctx, model, lang, spec, err.problems);
      throw err;
    }
  },
  'system.deleteBook': async (ctx, { knex, live, principal, lang, params }) => {
    if (!live) throw new Error('the reference books screen needs the reloadable model');
    await deleteBook({ knex, live, principal: principal!, lang }, String(params.name));
    ctx.body = { name: params.name };
  },
};

/**
 * The `meta-books` entity's hooks (metadata/entities/admin/meta-books.json): a book's row written
 * or removed through the Repository makes, alters or drops its table in the same transaction
 * (api/engine/books.ts).
 */
export const BOOK_HOOKS: Record<string, Hook> = {
  'system.bookSaved': (ctx) => bookSaved(ctx),
  'system.bookRemoved': (ctx) => bookRemoved(ctx),
};

/** The body as a spec: its shape only; everything else is the loader's to check. */
function specOf(body: unknown): BookSpec {
  const b = body as Partial<BookSpec> | undefined;
  if (
    !b ||
    typeof b !== 'object' ||
    Array.isArray(b) ||
    typeof b.name !== 'string' ||
    typeof b.section !== 'string' ||
    !b.caption ||
    typeof b.caption !== 'object' ||
    (b.fields !== undefined && !Array.isArray(b.fields)) ||
    (b.fields ?? []).some((f) => !f || typeof f !== 'object' || typeof f.name !== 'string' || typeof f.type !== 'string')
  )
    throw badRequest('errors.bad_body');
  return { name: b.name, section: b.section, caption: b.caption, fields: b.fields ?? [] };
}

/**
 * 400 with every problem, each under the screen's field it concerns (a spec's own problem knows its
 * input; the loader's by its JSON pointer), said in the caller's language, and the problems as the
 * files' loader gives them.
 */
function invalid(
  ctx: AppContext,
  model: MetaModel,
  lang: Parameters<typeof translate>[1],
  spec: BookSpec,
  problems: (BookProblem & { field?: string })[],
): void {
  const errors: Record<string, string> = {};
  for (const p of problems) {
    // a missing property is the schema's problem of its parent: shown beside the input it is missing from
    const missing = /required property '([^']+)'/.exec(p.message);
    const field = p.field ?? specFieldOf(missing ? `${p.pointer}/${missing[1]}` : p.pointer, spec);
    const { key, args } = problemText(p);
    const text = translate(model, lang, key, args);
    errors[field] = errors[field] ? `${errors[field]}; ${text}` : text;
  }
  ctx.status = 400;
  ctx.body = {
    code: ERROR_CODES.validation,
    message: translate(model, lang, 'errors.validation'),
    description: translate(model, lang, 'errors.validation_description'),
    errors,
    problems: problems.map(({ file, pointer, message }) => ({ file, pointer, message })),
  };
}
