import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

/**
 * axe-core over a screen of the browser tests (issue 29; docs/accessibility.md, decisions/0084):
 * injected into the page once (evaluated through the DevTools protocol, which the sites' strict
 * Content-Security-Policy does not stop), run over the whole document with the WCAG 2.0/2.1/2.2
 * A and AA rules and axe's best practices, its violations counted by impact. A lane's log prints
 * one line a screen — `axe <screen>: serious N, critical N, moderate N, minor N` — writes them with
 * every violation's rule and nodes to artifacts/e2e/axe-<lane>.json, and answers a problem line
 * for each serious or critical rule broken, naming the screen, the rule and the nodes' selectors.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The rule sets run: WCAG 2.0, 2.1 and 2.2 at A and AA, and axe's best practices (decisions/0084). */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

export const IMPACTS = ['critical', 'serious', 'moderate', 'minor'] as const;
export type Impact = (typeof IMPACTS)[number];
/** The impacts a screen may not have. */
const FAILING: Impact[] = ['critical', 'serious'];

export interface AxeViolation {
  rule: string;
  impact: Impact;
  help: string;
  /** the offending nodes' CSS selectors (a node in a shadow root or frame: its path joined by " >>> ") */
  nodes: string[];
  /** of a serious or critical rule (of every rule with `detail`): each node's HTML, cut at 300 characters, and axe's summary of what to fix */
  details?: { html: string; summary: string }[];
}

export interface AxeScreen {
  screen: string;
  counts: Record<Impact, number>;
  /** milliseconds the check took in the page, injection included */
  ms: number;
  violations: AxeViolation[];
}

export interface AxeOptions {
  /**
   * CSS selectors of the parts checked, else the whole document (the back-office's screens: their
   * main content, the app's frame around it being checked whole once a lane — e2e/sweep.ts)
   */
  include?: string[];
  /** every violation's nodes' HTML and summary, not only the serious and critical ones' */
  detail?: boolean;
}

/** axe-core's violations on the page as it stands, by impact (a rule counts once per node). */
export async function axeScreen(page: Page, screen: string, { include = [], detail = false }: AxeOptions = {}): Promise<AxeScreen> {
  const t0 = Date.now();
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(SOURCE);
  const violations = await page.evaluate(
    async ({ tags, include, detail, failing }) => {
      type Node = { target: unknown[]; html: string; failureSummary?: string };
      type Result = { id: string; impact: string | null; help: string; nodes: Node[] };
      const axe = (window as unknown as { axe: { run(ctx: unknown, o: unknown): Promise<{ violations: Result[] }> } }).axe;
      const context = include.length ? { include: include.map((e) => [e]) } : document;
      const r = await axe.run(context, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
      return r.violations.map((v) => ({
        rule: v.id,
        impact: v.impact ?? 'minor',
        help: v.help,
        nodes: v.nodes.map((n) => n.target.map((t) => (Array.isArray(t) ? t.join(' >>> ') : String(t))).join(' | ')),
        ...(detail || failing.includes(v.impact ?? '')
          ? { details: v.nodes.map((n) => ({ html: n.html.slice(0, 300), summary: n.failureSummary ?? '' })) }
          : {}),
      }));
    },
    { tags: AXE_TAGS, include, detail, failing: FAILING as string[] },
  );
  const counts = { critical: 0, serious: 0, moderate: 0, minor: 0 } as Record<Impact, number>;
  for (const v of violations) counts[v.impact as Impact] += v.nodes.length;
  return { screen, counts, ms: Date.now() - t0, violations: violations as AxeViolation[] };
}

/** One line of a screen's counts, as printed. */
export const axeLine = (s: AxeScreen) =>
  `axe ${s.screen}: serious ${s.counts.serious}, critical ${s.counts.critical}, moderate ${s.counts.moderate}, minor ${s.counts.minor}`;

/** The problem lines of a screen's serious and critical violations: the screen, the rule, its nodes. */
export function axeProblems(s: AxeScreen): string[] {
  return s.violations
    .filter((v) => FAILING.includes(v.impact))
    .map((v) => {
      const shown = v.nodes.slice(0, 5).join(', ') + (v.nodes.length > 5 ? ` and ${v.nodes.length - 5} more` : '');
      return `axe ${s.screen}: ${v.impact} ${v.rule} (${v.help}) at ${shown}`;
    });
}

/** The screens of one lane (a sweep's language, the public site, the field app) and their counts. */
export class AxeLog {
  readonly screens: AxeScreen[] = [];
  constructor(readonly lane: string) {}

  /** Checks the page as `screen`; answers the serious and critical problems found. */
  async check(page: Page, screen: string, options: AxeOptions = {}): Promise<string[]> {
    const s = await axeScreen(page, screen, options);
    this.screens.push(s);
    return axeProblems(s);
  }

  /** Milliseconds spent in axe over the lane. */
  get ms(): number {
    return this.screens.reduce((a, s) => a + s.ms, 0);
  }

  /** The lines printed: one a screen, then the lane's total. */
  report(): string {
    const lines = this.screens.map(axeLine);
    const total = Object.fromEntries(IMPACTS.map((i) => [i, this.screens.reduce((a, s) => a + s.counts[i], 0)]));
    lines.push(
      `axe ${this.lane}: ${this.screens.length} screens, serious ${total.serious}, critical ${total.critical}, moderate ${total.moderate}, minor ${total.minor}; ${(this.ms / 1000).toFixed(1)} s in axe`,
    );
    return lines.join('\n');
  }

  /** Writes artifacts/e2e/axe-<lane>.json and prints the lines; answers the file's path. */
  write(): string {
    const dir = join(ROOT, 'artifacts', 'e2e');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `axe-${this.lane}.json`);
    writeFileSync(file, `${JSON.stringify({ lane: this.lane, tags: AXE_TAGS, ms: this.ms, screens: this.screens }, null, 1)}\n`);
    console.log(this.report());
    return file;
  }
}
