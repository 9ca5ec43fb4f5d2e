import { relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import './skip.ts';

/**
 * After vitest's summary, the tests that did not run and why: "Skipped, and why", by file and
 * reason (`skipBecause(reason)` of test/support/skip.ts, or `ctx.skip(reason)` inside a test),
 * each test named. A skip is never a pass: vitest counts it as skipped, and this says what would
 * have to be there for it to run. A skip that gives no reason is listed as such, to be given one;
 * tests left out by `-t` are counted on one line, not listed.
 */
export default class SkipReporter implements Reporter {
  private vitest!: Vitest;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const root = this.vitest.config.root;
    const filtered = !!this.vitest.config.testNamePattern;
    // file → reason → test names
    const byFile = new Map<string, Map<string, string[]>>();
    let left = 0;
    let todo = 0;
    for (const module of testModules) {
      const project = module.project.name;
      const file = (project ? `[${project}] ` : '') + relative(root, module.moduleId);
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state !== 'skipped') continue;
        if (test.options.mode === 'todo') {
          todo++;
          continue;
        }
        const reason = result.note ?? test.meta().skipReason;
        if (!reason && filtered) {
          left++;
          continue;
        }
        const why = reason ?? 'no reason given — give it one (test/support/skip.ts)';
        const reasons = byFile.get(file) ?? new Map<string, string[]>();
        byFile.set(file, reasons);
        reasons.set(why, [...(reasons.get(why) ?? []), test.fullName]);
      }
    }
    if (!byFile.size && !left && !todo) return;
    const log = (line = '') => this.vitest.logger.log(line);
    log();
    if (byFile.size) {
      const count = [...byFile.values()].reduce((n, r) => n + [...r.values()].reduce((m, t) => m + t.length, 0), 0);
      log(` Skipped, and why (${count} ${count === 1 ? 'test' : 'tests'}, not passed: they did not run)`);
      for (const [file, reasons] of [...byFile].sort(([a], [b]) => a.localeCompare(b))) {
        for (const [why, tests] of reasons) {
          log(`   ${file}: ${tests.length} ${tests.length === 1 ? 'test' : 'tests'} — ${why}`);
          for (const name of tests) log(`     · ${name}`);
        }
      }
    }
    if (left) log(` ${left} ${left === 1 ? 'test' : 'tests'} left out by -t`);
    if (todo) log(` ${todo} to do (test.todo)`);
    log();
  }
}
