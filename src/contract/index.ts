// The contract as the library sees it: generated types, validators and assert helpers.
export * from '../../generated/index.js';
export { ContractError, issuesOf, type ContractIssue } from './contract-error.js';
