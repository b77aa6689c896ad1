// The executor: run local tools under a session policy, with every side effect in events.
export type {
  Tool, FileAffectingTool, ToolResult, ToolContext, TitleContext, ValidateContext, PathView, SessionView, ParamRoles, ParamsSchema, ProgressUpdate,
} from './types.js';
export { success, failure, isFileAffecting } from './types.js';
export { ToolRegistry, ToolRegistrationError } from './registry.js';
export { ToolExecutor, ExecutorRecordError, type ToolExecutorOptions, type ToolRequest, type ExecutionResult, type ExecutionSuccess, type ExecutionFailure } from './executor.js';
export { TIER_ORDER, TIER_MEANING, tierAllows, tierRank, isTier } from './tiers.js';
export { ToolPath, resolveToolPath, lexicalPath, realPrefix, isInside, PATH_MAX, NAME_MAX, type PathResolution, type PathBase } from './tool-path.js';
export { resolvePolicy, DEFAULT_MAX_TIER, type PolicyInput, type SessionPolicy, type CommandRule, type HostRule, type CommandPolicy, type NetworkPolicy, type FilePolicy, type SandboxPolicy } from './policy.js';
export { assess, accessOf, type Assessment } from './assess.js';
export { ROLE_GATES, commandSegments, ADDRESS_CLASSES, NON_PUBLIC_CLASSES, classifyAddress, classifyHost, judgeAddress, judgeTarget, targetHost, matchesHost, type RoleGate, type GateContext, type GateOutcome, type AddressClass, type AddressVerdict, type NetworkJudgement, type NonPublicClass } from './gates/index.js';
export { fileDigest, mutationOf } from './digest.js';
export { builtinTools, bashTool, fileReadTool, fileWriteTool, fileEditTool, fileCopyTool, webFetchTool, WEB_FETCH_SPEC, replaceExact, unifiedDiff, type BuiltinOptions, type WebFetchOptions, type Hunk } from './builtins/index.js';
export { BoundaryError, openVerified, readVerified, writeVerified, verifyFd, type BoundaryReason, type FileBoundary } from './safe-fs.js';
