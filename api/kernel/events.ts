/**
 * A small typed event emitter: the engine says what happened (a workflow move), the modules that
 * care listen (the notifications queue one), and neither imports the other — start-up
 * (api/registry.ts) hands the modules' listeners in. Listeners run one after another, awaited, in
 * the order they were added; what one throws is the emitter's caller's error (an event emitted in a
 * transaction fails the transaction), so a listener may write in the emitter's transaction.
 */
export type Listener<P> = (payload: P) => Promise<void> | void;

export class Events<M extends { [K in keyof M]: unknown }> {
  private readonly listeners = new Map<keyof M, Listener<never>[]>();

  /** Adds a listener of one event; answers a function that removes it. */
  on<K extends keyof M>(name: K, fn: Listener<M[K]>): () => void {
    const list = this.listeners.get(name) ?? [];
    list.push(fn as Listener<never>);
    this.listeners.set(name, list);
    return () => {
      const at = list.indexOf(fn as Listener<never>);
      if (at >= 0) list.splice(at, 1);
    };
  }

  /** Whether anyone listens to the event. */
  has<K extends keyof M>(name: K): boolean {
    return !!this.listeners.get(name)?.length;
  }

  /** Calls every listener of the event in turn, each awaited. */
  async emit<K extends keyof M>(name: K, payload: M[K]): Promise<void> {
    for (const fn of [...(this.listeners.get(name) ?? [])]) await (fn as Listener<M[K]>)(payload);
  }
}
