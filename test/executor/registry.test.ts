// ToolRegistry: one registration per name, checked at registration; schemas compiled once.
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { ToolRegistrationError, ToolRegistry, builtinTools, success, type Tool } from '../../src/executor/index.js';

const base: Tool = { name: 't', kind: 'unknown', tier: 'observe', description: '', params: Type.Object({ path: Type.String() }), title: () => 'T', execute: async () => success() };

describe('ToolRegistry', () => {
  it('looks tools up by name and lists them in registration order', () => {
    const r = new ToolRegistry(builtinTools());
    expect(r.names()).toEqual(['bash', 'file_read', 'file_write', 'file_edit', 'file_copy', 'web_fetch']);
    expect(r.get('file_read')?.kind).toBe('file_read');
    expect(r.get('nope')).toBeUndefined();
    expect(r.has('bash')).toBe(true);
  });

  it('rejects a duplicate name', () => {
    const r = new ToolRegistry([base]);
    expect(() => r.register({ ...base })).toThrow(new ToolRegistrationError('t', 'a tool with this name is already registered'));
  });

  it.each([
    [{ name: '' }, /non-empty/],
    [{ name: 'two words' }, /no whitespace/],
    [{ kind: 'hammer' }, /unknown kind "hammer"/],
    [{ tier: 'root' }, /unknown tier "root"/],
    [{ paramRoles: { '/path': 'URL' } }, /unknown role "URL"/],
    [{ paramRoles: { '/pth': 'PATH' } }, /param \/pth \(role PATH\) is not declared/],
    [{ paramRoles: { '/a~2': 'PATH' } }, /bad escape/],
    [{ params: { type: 'object', properties: { x: { type: 'no-such-type' } } } }, /does not compile/],
    [{ execute: undefined }, /title\(\) and execute\(\)/],
    [{ tier: 'observe', affectedPaths: () => [] }, /cannot be observe/],
    [{ kind: 'file_write', tier: 'workspace' }, /a file_write tool writes files, so it must be a FileAffectingTool \(declare affectedPaths\)/],
    [{ kind: 'file_edit', tier: 'workspace' }, /a file_edit tool writes files, so it must be a FileAffectingTool/],
  ] as [Partial<Tool> & Record<string, unknown>, RegExp][])('refuses %j', (patch, message) => {
    expect(() => new ToolRegistry().register({ ...base, ...patch } as Tool)).toThrow(message);
  });

  it('accepts a writing kind that declares affectedPaths, and a file_read tool without them', () => {
    expect(() => new ToolRegistry([{ ...base, kind: 'file_write', tier: 'workspace', affectedPaths: () => [] } as Tool])).not.toThrow();
    expect(() => new ToolRegistry([{ ...base, kind: 'file_read' }])).not.toThrow();
  });

  it('accepts plain JSON Schema as well as TypeBox, compiled once at registration', () => {
    const r = new ToolRegistry([{ ...base, name: 'plain', params: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false }, paramRoles: { path: 'PATH' } }]);
    expect(r.validateParams('plain', { path: 'x' })).toEqual({ valid: true, issues: [] });
    expect(r.validateParams('plain', {})).toMatchObject({ valid: false, issues: [{ path: '/path', keyword: 'required' }] });
    expect(r.validateParams('missing', {})).toMatchObject({ valid: false, issues: [{ message: /no tool named "missing"/ }] });
  });

  it('role pointers may use * for array elements and are checked against items', () => {
    const params = Type.Object({ paths: Type.Array(Type.String()) });
    expect(() => new ToolRegistry([{ ...base, params, paramRoles: { '/paths/*': 'PATH' } }])).not.toThrow();
    expect(() => new ToolRegistry([{ ...base, params, paramRoles: { '/paths/*/x': 'PATH' } }])).toThrow(/not declared/);
  });
});
