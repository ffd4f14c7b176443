export {
  decidePermission,
  permissionDeniesTool,
  PERMISSION_WILDCARD_TOOL,
  type PermissionCall,
  type PermissionDecision,
  type PermissionRuleMatch,
} from './decide-permission.js';
export { PERMISSION_SUBJECT_FIELDS } from './permission-subject-fields.js';
export { withPermissionRules, type PermissionRuledToolRegistry } from './with-permission-rules.js';
export type { PermissionAction, PermissionPatternRule, PermissionRuleSet } from '../permission-types.js';
