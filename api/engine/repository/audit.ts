import { rowHistory, writeAudit } from '../audit.ts';
import { RepositoryRead } from './read.ts';
import { hasMaskedFields, maskRow, recordClearRead, shownPersonal } from '../personal.ts';

/** The repository's audit trail: a row's history, a note of a change outside the row's columns, the fields it never shows. */
export class RepositoryAudit extends RepositoryRead {
  /** A row's audit trail (newest first), for whoever may read the row. */
  async history(id: number): Promise<Record<string, unknown>[]> {
    const row = await this.findOne(id, 'read');
    const rows = await rowHistory(this.db, this.ctx.model, this.e, id, undefined, row.created_at);
    // the values before and after are the row's fields: masked as the row is, a clear read recorded once for the record
    if (this.ctx.trusted || !hasMaskedFields(this.e)) return rows;
    if (!this.readsInClear) {
      for (const r of rows) {
        if (r.before) r.before = maskRow(this.e, r.before as Record<string, unknown>);
        if (r.after) r.after = maskRow(this.e, r.after as Record<string, unknown>);
      }
      return rows;
    }
    const values = rows.flatMap((r) => [r.before, r.after].filter(Boolean) as Record<string, unknown>[]);
    const fields = shownPersonal(this.e, values);
    if (fields.length) await recordClearRead(this.db, this.ctx.principal, this.e, 'history', [id], fields);
    return rows;
  }

  /**
   * An audit row for a change that lives outside the row's columns (a lifted sign-in lock), in the
   * given transaction or one of its own.
   */
  async note(id: number, action: string, after: Record<string, unknown>): Promise<void> {
    await this.transaction((trx) => writeAudit(trx, this.e, this.actor, [{ id, op: 'action', action, before: null, after }]));
  }

  /** Fields set in a change whose values the audit trail never shows. */
  protected secrets(changes: Record<string, unknown>): string[] {
    return Object.keys(changes).filter((n) => this.e.fields[n]?.type === 'password');
  }
}
