/**
 * An aggregate kept by statement triggers with transition tables (docs/scaling.md, "The aggregates
 * stay right"): one function that takes out what the statement's old rows added and adds its new
 * rows (`of(rows, sign)`: the statements for a set of rows, `-` to take them out), then runs
 * `cleanup` (deleting the rows it emptied), and its three triggers on `table`.
 */
export function aggregateTriggersSql(
  table: string,
  fn: string,
  of: (rows: string, sign: '' | '-') => string[],
  cleanup: string[] = [],
): string[] {
  return [
    `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP IN ('DELETE', 'UPDATE') THEN ${of('old_rows', '-').join(';')};
      END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') THEN ${of('new_rows', '').join(';')};
      END IF;
      ${cleanup.map((c) => `${c};`).join('\n      ')}
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER ${fn}_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
    `CREATE TRIGGER ${fn}_update AFTER UPDATE ON ${table} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
    `CREATE TRIGGER ${fn}_delete AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
  ];
}

/** What aggregateTriggersSql made, dropped. */
export function dropAggregateTriggersSql(table: string, fn: string): string[] {
  return [
    ...['insert', 'update', 'delete'].map((op) => `DROP TRIGGER IF EXISTS ${fn}_${op} ON ${table}`),
    `DROP FUNCTION IF EXISTS ${fn}()`,
  ];
}
