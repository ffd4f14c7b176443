const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const CLEAR_LINE = '\r\u001b[K';

/** A one-line spinner on a terminal stream; does nothing when `enabled` is false. */
export class Spinner {
  private timer: ReturnType<typeof setInterval> | undefined;
  private frame = 0;
  private label = '';

  constructor(private readonly write: (text: string) => void, private readonly enabled: boolean) {}

  /** Shows (or relabels) the spinner. */
  start(label: string): void {
    if (!this.enabled) return;
    this.label = label;
    this.draw();
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.draw(), 80);
      this.timer.unref?.();
    }
  }

  /** Hides the spinner and clears its line. */
  stop(): void {
    if (this.timer === undefined) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.write(CLEAR_LINE);
  }

  private draw(): void {
    this.frame = (this.frame + 1) % FRAMES.length;
    this.write(`${CLEAR_LINE}${FRAMES[this.frame] as string} ${this.label}`);
  }
}
