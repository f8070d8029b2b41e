// Reference pattern matcher: the position-set algorithm of robots.cc (RobotsMatchStrategy::Matches), O(path × pattern).
//
// The set holds every path index that the pattern read so far can end at. `*` opens every
// index from the smallest one on; a literal byte keeps the indexes whose next byte equals
// it; a final `$` asks whether the path's end is in the set. Obviously correct, not fast.

const STAR = 0x2a;
const DOLLAR = 0x24;

/**
 * Whether `pattern` matches a prefix of `path` (the whole path when it ends in `$`).
 * `*` matches any run of bytes; `$` anchors only as the last byte, elsewhere it is literal.
 * @example referenceGlobMatches(utf8('/a/b'), utf8('/*\/b$')) // true
 */
export function referenceGlobMatches(path: Uint8Array, pattern: Uint8Array): boolean {
  // pos[0, count) is the sorted set of path indexes the pattern read so far can end at.
  const pos = new Int32Array(path.length + 1);
  let count = 1;
  for (let p = 0; p < pattern.length; p++) {
    const c = pattern[p]!;
    if (c === DOLLAR && p === pattern.length - 1) return pos[count - 1] === path.length;
    if (c === STAR) {
      // Every index from the smallest reachable one to the end.
      const from = pos[0]!;
      count = path.length - from + 1;
      for (let k = 0; k < count; k++) pos[k] = from + k;
      continue;
    }
    let kept = 0;
    for (let k = 0; k < count; k++) {
      const i = pos[k]!;
      if (i < path.length && path[i] === c) pos[kept++] = i + 1;
    }
    if (kept === 0) return false;
    count = kept;
  }
  return true;
}
