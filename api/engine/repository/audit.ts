import { rowHistory, writeAudit } from '../audit.ts';
import { RepositoryRead } from './read.ts';

/** The repository's audit trail: a row's history, a note of a change outside the row's columns, the fields it never shows. */
export class RepositoryAudit extends RepositoryRead {
  /** A row's audit trail (newest first), for whoever may read the row. */
  async history(id: number): Promise<Record<string, unknown>[]> {
    await this.getOne(id);
    return rowHistory(this.db, this.ctx.model, this.e, id);
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
