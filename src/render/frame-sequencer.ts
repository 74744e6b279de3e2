/**
 * Puts frames posted by the page back in render order. toBlob encodes and POSTs of
 * consecutive frames may finish out of order; the video encoder needs them in order. Holding
 * early frames is bounded by the page's in-flight window.
 */
export class FrameSequencer {
  private next = 0;
  private readonly held = new Map<number, Buffer>();
  private chain: Promise<void> = Promise.resolve();

  /**
   * `order`: the frame indices in the order they must be delivered.
   * `deliver`: the consumer; its promise is the backpressure.
   */
  constructor(
    private readonly order: readonly number[],
    private readonly deliver: (index: number, bytes: Buffer, position: number) => Promise<void>,
  ) {}

  /** Accepts a frame; resolves once it (and any frames it unblocked) were delivered. */
  push(index: number, bytes: Buffer): Promise<void> {
    if (!this.order.includes(index)) return Promise.reject(new Error(`unexpected frame ${index}`));
    this.held.set(index, bytes);
    // frames that arrive early are acknowledged at once; the one that completes a run waits for it
    if (this.order[this.next] !== index) return Promise.resolve();
    const run: Array<[number, Buffer, number]> = [];
    while (this.next < this.order.length && this.held.has(this.order[this.next]!)) {
      const i = this.order[this.next]!;
      run.push([i, this.held.get(i)!, this.next]);
      this.held.delete(i);
      this.next++;
    }
    this.chain = this.chain.then(async () => {
      for (const [i, b, pos] of run) await this.deliver(i, b, pos);
    });
    return this.chain;
  }

  /** Frames delivered so far. */
  get delivered(): number {
    return this.next;
  }
}
