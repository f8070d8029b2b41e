// Public entry point: re-exports only.
export { Robots, DEFAULT_MAX_BYTES, type ParseOptions, type RobotsExplanation } from './robots.js';
export { AgentMatcher, type Explanation, type BatchDecisions } from './matcher.js';
export { MultiAgentMatcher, type MultiBatchDecisions } from './multi-agent.js';
export { lexRobots, GOOGLE_MAX_LINE_BYTES, type Profile, type RobotsLineHandler } from './parse/lexer.js';
export { type Group, type AgentBlock, type RuleRecord, type OtherRecord } from './parse/groups.js';
export { toMatchPath } from './paths.js';
export { isValidProductToken, suggestProductToken } from './parse/product-token.js';
// The default export is the robots-parser drop-in, so the root also works installed under
// that name (docs/COMPAT.md); `require()` of the root gets src/commonjs.ts.
export { robotsParser as default, type Robot, type RobotsParserCompat } from './compat.js';
export { normalizePattern, escapePatternGoogle, normalizePatternRfc } from './rules/normalize.js';
export { lintRobots, LINT_CODES, type LintDiagnostic, type LintOptions, type LintCode, type LintSeverity } from './lint/index.js';
export { FORMAT_VERSION } from './table/format.js';
export {
  setEngineLimits, engineLimits, MemoryLimitError, UrlLengthError, DEFAULT_MAX_MEMORY_BYTES, DEFAULT_MAX_URL_BYTES,
  DEFAULT_RETAIN_MEMORY_BYTES, MAX_URL_BYTES_CEILING, type EngineLimits,
} from './wasm/index.js';
export {
  AcapPolicy, ACAP_USAGES, ACAP_DIAGNOSTIC_CODES, DEFAULT_ACAP_MAX_EXPANDED_RULES, isAcapUsage, compareScope,
  type AcapCheckOptions, type AcapDiagnostic, type AcapDiagnosticCode, type AcapQualifier,
  type AcapQualifierType, type AcapUsage, type AcapVerdict, type AcapRecord, type AcapRule,
  type AcapReference, type AcapRequest, type AcapTimeLimit, type AcapSubRecord,
  type AcapResourceSet, type AcapLocalUsage, type AcapQualifiedPart, type AcapResourceTarget,
  type AcapModification, type ConventionalPolicy,
} from './acap/index.js';
