// The peer every matcher is compared against: a per-rule loop anyone would write first.
//
// Per URL it loops over every rule of the agent's groups and matches the pattern with a
// classic regex-free glob (`*` backtracks to the last star, a final `$` anchors), longest
// pattern wins, allow wins ties (RFC 9309 §2.2.2). No percent-normalization, no trie, no
// Wasm: O(rules × path) per URL, and O(path × pattern) per rule in the worst case.

/** Rules of the groups that apply to `agent` (named groups, else `*`), in file order. */
function parseRules(body, agent) {
  const token = agent.toLowerCase();
  const groups = [];
  let current = null;
  let inRules = false;
  for (const raw of body.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*/, '').trim();
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'user-agent') {
      if (!current || inRules) {
        current = { agents: [], rules: [] };
        groups.push(current);
        inRules = false;
      }
      current.agents.push(value.toLowerCase());
    } else if ((key === 'allow' || key === 'disallow') && current) {
      inRules = true;
      if (value !== '') current.rules.push({ allow: key === 'allow', pattern: value });
    }
  }
  const named = groups.filter((g) => g.agents.includes(token));
  return (named.length > 0 ? named : groups.filter((g) => g.agents.includes('*'))).flatMap((g) => g.rules);
}

/** Whether glob `pattern` (`*` any run, final `$` end) matches a prefix of `path`. */
function globMatches(pattern, path) {
  const anchored = pattern.endsWith('$');
  const p = anchored ? pattern.slice(0, -1) : pattern;
  let i = 0; // path position
  let j = 0; // pattern position
  let starJ = -1;
  let starI = 0;
  while (i < path.length) {
    if (j === p.length && !anchored) return true;
    if (j < p.length && p[j] === '*') {
      starJ = j++;
      starI = i;
    } else if (j < p.length && p[j] === path[i]) {
      i++;
      j++;
    } else if (starJ >= 0) {
      j = starJ + 1;
      i = ++starI;
    } else {
      return false;
    }
  }
  while (j < p.length && p[j] === '*') j++;
  return j === p.length;
}

function pathOf(url) {
  const scheme = url.indexOf('://');
  let start = 0;
  if (scheme >= 0 && scheme < url.search(/[/?;]|$/)) {
    start = url.slice(scheme + 3).search(/[/?;#]|$/) + scheme + 3;
  }
  let path = url.slice(start);
  const hash = path.indexOf('#');
  if (hash >= 0) path = path.slice(0, hash);
  if (path === '') return '/';
  return path[0] === '/' ? path : `/${path}`;
}

/** A naive matcher for one agent of one robots.txt. */
export class NaiveMatcher {
  constructor(body, agent) {
    this.rules = parseRules(body, agent);
  }

  isAllowed(url) {
    const path = pathOf(url);
    let best = null;
    for (const rule of this.rules) {
      if (!globMatches(rule.pattern, path)) continue;
      if (!best || rule.pattern.length > best.pattern.length || (rule.pattern.length === best.pattern.length && rule.allow)) best = rule;
    }
    return best === null || best.allow;
  }
}
