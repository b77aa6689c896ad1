// The contract as the library sees it: generated types and validators, and the guards over them.
export * from '../../generated/index.js';
export { ContractError, issuesOf, type ContractIssue } from './contract-error.js';
export * from './guards.js';
