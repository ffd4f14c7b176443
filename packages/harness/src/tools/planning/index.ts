export {
  createPlanningToolRegistry,
  PLANNING_TOOL_NAMES,
  type PlanItem,
  type PlanItemStatus,
  type PlanningToolOptions,
} from './create-planning-tool-registry.js';
