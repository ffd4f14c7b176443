import { RANK } from './classify-lines.js';
import { cutLine, jsonStringBytes, type LineIndex, rawLine, screenLine } from './output-lines.js';

/** One stream to choose lines from. */
export interface RankedStream {
  readonly index: LineIndex;
  readonly ranks: Uint8Array;
}

/** The lines kept: one flag per line per stream, and the order they were added in (`line * 2 + stream`: two streams at most). */
export interface LineSelection {
  readonly kept: Uint8Array[];
  readonly order: number[];
}

/** A line as shown in a result. */
export function shownText(index: LineIndex, k: number): string {
  return cutLine(screenLine(rawLine(index, k)));
}

/**
 * Keeps lines best rank first while their cost fits in `room` bytes. Within a rank the streams
 * take turns (stderr first), each in line order; a line that does not fit is skipped. In the
 * rank `rest` a stream stops at its first line that does not fit (no scattered filler); the
 * rank `passing` is all or nothing per stream.
 *
 * A line's cost is an upper bound of what it adds to the serialised result: its JSON-escaped
 * text, plus 4 bytes when it joins a neighbouring kept line (`\n` and a digit more in `to` or in
 * an omitted range), or 30 bytes and four line numbers when it starts a block of its own (the
 * block's `{"from":…,"to":…,"text":""}` and the omitted range it splits in two).
 */
export function selectLines(streams: readonly RankedStream[], room: number): LineSelection {
  const kept = streams.map((stream) => new Uint8Array(stream.index.count));
  const order: number[] = [];
  const digits = streams.map((stream) => String(stream.index.count + 1).length);
  let left = room;
  /** Keeps line `k` of stream `s` when it fits; false when it does not. */
  const keep = (s: number, k: number): boolean => {
    const { index } = streams[s]!;
    const flags = kept[s]!;
    const joins = (k > 0 && flags[k - 1] === 1) || (k + 1 < index.count && flags[k + 1] === 1);
    const cost = jsonStringBytes(shownText(index, k)) + (joins ? 4 : 30 + 4 * digits[s]!);
    if (cost > left) return false;
    flags[k] = 1;
    left -= cost;
    order.push(k * 2 + s);
    return true;
  };
  const turns = streams.map((_, s) => s).reverse();
  for (let rank: number = RANK.summary; rank <= RANK.rest; rank += 1) {
    const cursors = streams.map(() => 0);
    const active = streams.map(() => true);
    while (active.some(Boolean)) {
      for (const s of turns) {
        if (!active[s]) continue;
        const { index, ranks } = streams[s]!;
        let k = cursors[s]!;
        while (k < index.count && ranks[k] !== rank) k += 1;
        if (k >= index.count) {
          active[s] = false;
          continue;
        }
        cursors[s] = k + 1;
        if (!keep(s, k) && rank === RANK.rest) active[s] = false;
      }
    }
  }
  for (const s of turns) {
    const { index, ranks } = streams[s]!;
    const before = { left, added: order.length };
    for (let k = 0; k < index.count; k += 1) {
      if (ranks[k] !== RANK.passing || keep(s, k)) continue;
      dropLastAdded({ kept, order }, order.length - before.added);
      left = before.left;
      break;
    }
  }
  return { kept, order };
}

/** Drops the last `count` lines added (for the final exact check). */
export function dropLastAdded(selection: LineSelection, count: number): void {
  for (let n = 0; n < count && selection.order.length > 0; n += 1) {
    const entry = selection.order.pop()!;
    selection.kept[entry % 2]![Math.floor(entry / 2)] = 0;
  }
}
