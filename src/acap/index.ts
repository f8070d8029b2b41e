// ACAP 1.0 extension (robots.txt part 1): public re-exports only.
export { AcapCollector } from './collect.js';
export { AcapPolicy, type AcapCheckOptions, type AcapPolicyParts } from './evaluate.js';
export {
  ACAP_DIAGNOSTIC_CODES,
  ACAP_USAGES,
  DEFAULT_ACAP_MAX_EXPANDED_RULES,
  type AcapDiagnostic,
  type AcapDiagnosticCode,
  type AcapLocalUsage,
  type AcapModification,
  type AcapQualifiedPart,
  type AcapQualifier,
  type AcapQualifierType,
  type AcapRecord,
  type AcapReference,
  type AcapRequest,
  type AcapResourceSet,
  type AcapResourceTarget,
  type AcapRule,
  type AcapSubRecord,
  type AcapTimeLimit,
  type AcapUsage,
  type AcapVerdict,
  type ConventionalPolicy,
} from './model.js';
export { compareScope, narrowestRules, resolveConflict } from './scope.js';
export { isAcapUsage } from './usages.js';
