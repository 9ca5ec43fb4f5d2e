import { describe, expect, it } from 'vitest';
import { buildRegistry } from './registry.ts';
import { Events } from './kernel/events.ts';
import { MODULES } from './modules/index.ts';
import { loadMetadata } from './meta/load.ts';
import { pluginsOf } from './engine/repository.ts';
import { jobKind } from './jobs/queue.ts';
import type { EngineEvents } from './engine/events.ts';

describe('the modules registry (api/registry.ts)', () => {
  it('collects every module once: hooks, handlers, forms, job kinds and the workflow listener', () => {
    const r = buildRegistry();
    expect(r.modules).toBe(MODULES);
    expect(Object.keys(r.hooks).length).toBeGreaterThan(10);
    expect(r.handlers['system.health']).toBeTypeOf('function');
    expect(Object.keys(r.jobs).sort()).toEqual(expect.arrayContaining(['entity-import', 'export', 'report-export', 'statement-import']));
    // the worker finds each kind by name once the registry is built: nothing registers itself on import
    for (const kind of Object.keys(r.jobs)) expect(jobKind(kind)).toBe(r.jobs[kind]);
    expect(r.events.has('workflow.moved')).toBe(true);
    expect(r.check(loadMetadata())).toEqual([]);
  });

  it('refuses a hook, handler or job kind two modules define', () => {
    const hook = async () => undefined;
    expect(() =>
      buildRegistry([
        { name: 'a', hooks: { 'x.y': hook } },
        { name: 'b', hooks: { 'x.y': hook } },
      ]),
    ).toThrow('hook "x.y" of module b is defined twice');
    expect(() => buildRegistry([{ name: 'a', jobs: { export: async () => undefined } }])).toThrow(
      'job kind "export" of module a is defined twice',
    );
  });

  it('binds a model to the engine: the engine finds the hooks through the model it is given', () => {
    const model = loadMetadata();
    expect(pluginsOf(model)).toBeUndefined();
    const r = buildRegistry();
    expect(r.bind(model)).toBe(model);
    expect(pluginsOf(model)?.hooks).toBe(r.hooks);
  });

  it("runs each module's load() once per process, when a registry first holds it, never on import", () => {
    let loads = 0;
    const mod = {
      name: 'loader',
      load: () => {
        loads += 1;
      },
    };
    expect(loads).toBe(0);
    buildRegistry([mod]);
    buildRegistry([mod]);
    expect(loads).toBe(1);
    // the notifications module subscribes to the suggestions' answers in its load(), not as a side effect of importing it
    expect(MODULES.find((m) => m.name === 'notifications')?.load).toBeTypeOf('function');
  });

  it('a model the registry lacks a name of does not check', () => {
    const r = buildRegistry([]);
    const problems = r.check(loadMetadata());
    expect(problems.some((p) => /no module defines the hook/.test(p.message))).toBe(true);
    expect(problems.some((p) => /no module defines the handler "system.health"/.test(p.message))).toBe(true);
  });
});

describe('the kernel events (api/kernel/events.ts)', () => {
  it("calls listeners in turn, each awaited, and what one throws is the emitter's", async () => {
    const events = new Events<{ tick: number }>();
    const seen: string[] = [];
    events.on('tick', async (n) => {
      await new Promise((r) => setTimeout(r, 5));
      seen.push(`a${n}`);
    });
    const off = events.on('tick', (n) => {
      seen.push(`b${n}`);
    });
    await events.emit('tick', 1);
    off();
    await events.emit('tick', 2);
    expect(seen).toEqual(['a1', 'b1', 'a2']);
    events.on('tick', () => {
      throw new Error('refused');
    });
    await expect(events.emit('tick', 3)).rejects.toThrow('refused');
  });

  it('is typed by the engine: workflow.moved carries the move', () => {
    const events = new Events<EngineEvents>();
    expect(events.has('workflow.moved')).toBe(false);
  });
});
