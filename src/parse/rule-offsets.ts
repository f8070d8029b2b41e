// RuleOffsets: a parse's allow/disallow lines as offsets into its body, so that compiling reads the bytes and no RuleRecord or view is made until one is asked for.
import type { Group, RuleRecord } from './groups.js';

/**
 * The rules a GroupCollector read, in file order. A group's rules are one run: rules go
 * to the current group, and a group never becomes current again once the next one starts
 * (RFC 9309 §2.1), so group g holds rules [groupFirst[g], groupFirst[g + 1]) (the last
 * group: up to `count`).
 *
 * Why offsets: a RuleRecord and its view take about 140 bytes of heap per rule, three
 * numbers a tenth of that, and most rules are only ever read by the compiler, which can
 * read the body instead (the corpus parsed and kept: 24.9 MB of heap against 46.6 MB).
 */
export class RuleOffsets {
  /**
   * Three numbers per rule: its pattern's start and end in `body`, and its 1-based line,
   * negated for a disallow line (a line is never 0, so the sign is the kind).
   */
  private readonly fields: number[] = [];
  /** Per group, in the collector's order: the index of its first rule. */
  private readonly groupFirst: number[] = [];

  constructor(readonly body: Uint8Array) {}

  /** Rules read so far. */
  get count(): number {
    return this.fields.length / 3;
  }

  /** Starts the next group's run, at the rules read so far. */
  openGroup(): void {
    this.groupFirst.push(this.count);
  }

  /** Adds a rule, pattern body[start, end), to the group opened last. */
  push(allow: boolean, start: number, end: number, line: number): void {
    this.fields.push(start, end, allow ? line : -line);
  }

  /** The first rule of group `g`. */
  first(g: number): number {
    return this.groupFirst[g]!;
  }

  /** One past the last rule of group `g`. */
  stop(g: number): number {
    return g + 1 < this.groupFirst.length ? this.groupFirst[g + 1]! : this.count;
  }

  /** Where rule `i`'s pattern starts in `body`. */
  start(i: number): number {
    return this.fields[3 * i]!;
  }

  /** Where rule `i`'s pattern ends in `body`. */
  end(i: number): number {
    return this.fields[3 * i + 1]!;
  }

  /** Rule `i`'s line, negated when it is a disallow line. */
  signedLine(i: number): number {
    return this.fields[3 * i + 2]!;
  }

  /** Rules of the groups `groups` (indexes, in the order given), counted. */
  countOf(groups: readonly number[]): number {
    let n = 0;
    for (const g of groups) n += this.stop(g) - this.first(g);
    return n;
  }

  /**
   * Puts each group's rules into its `rules` array (`groups`: the collector's, whose
   * arrays are empty until then), as records whose patterns are views of `body`.
   */
  fill(groups: readonly Group[]): void {
    for (let g = 0; g < groups.length; g++) this.appendRecords(g, groups[g]!.rules);
  }

  /** New RuleRecords for the rules of `groups` (indexes, in the order given). */
  records(groups: readonly number[]): RuleRecord[] {
    const out: RuleRecord[] = [];
    for (const g of groups) this.appendRecords(g, out);
    return out;
  }

  /** Appends to `out` a new RuleRecord for each rule of group `g`, its pattern a view of `body`. */
  private appendRecords(g: number, out: RuleRecord[]): void {
    const body = this.body;
    const buffer = body.buffer;
    const base = body.byteOffset;
    for (let i = this.first(g), stop = this.stop(g); i < stop; i++) {
      const start = this.start(i);
      const line = this.signedLine(i);
      // The constructor, not subarray: it skips the species lookup (as the collector's views).
      out.push({ allow: line > 0, pattern: new Uint8Array(buffer, base + start, this.end(i) - start), line: line > 0 ? line : -line });
    }
  }
}
