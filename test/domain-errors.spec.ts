import { HttpException } from '@nestjs/common';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { createRequire } from 'module';
import { tmpdir } from 'os';
import { join, relative, sep } from 'path';
import * as ts from 'typescript';
import * as errors from '../src/common/errors';
import { domainAnswer } from '../src/common/http/exception.filter';

/**
 * Domain errors are plain classes mapped in the one exception filter (style.md "Errors", "stop these" 5):
 * no file under `src/` but the filter imports an HttpException (or a subclass) from a `@nestjs/*` package,
 * re-exports one, or reaches one through a namespace import. Which imported names are HttpExceptions is decided
 * at runtime (`prototype instanceof HttpException`), so a new Nest exception class is caught too.
 */

const SRC = join(__dirname, '..', 'src');

/** Files that may use Nest's exceptions, each with the reason. */
const ALLOWED: Record<string, string> = {
  'src/common/http/exception.filter.ts':
    'the one filter: renders the exceptions Nest itself raises (unknown routes)',
};

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return files(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/** True when `name` exported by `module` is HttpException or a subclass of it. */
function isHttpException(module: string, name: string): boolean {
  let exported: unknown;
  try {
    exported = (createRequire(__filename)(module) as Record<string, unknown>)[name];
  } catch {
    return false;
  }
  return (
    typeof exported === 'function' &&
    (exported === HttpException || (exported.prototype as unknown) instanceof HttpException)
  );
}

/** `<file>: <name> from <module>` for each HttpException a file takes from a `@nestjs/*` package. */
export function httpExceptionUses(root: string): string[] {
  const found: string[] = [];
  for (const path of files(root)) {
    const file = relative(join(root, '..'), path).split(sep).join('/');
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const namespaces = new Map<string, string>();
    const report = (module: string, name: string) => {
      if (isHttpException(module, name)) found.push(`${file}: ${name} from ${module}`);
    };
    const visit = (node: ts.Node): void => {
      if (
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier) &&
        node.moduleSpecifier.text.startsWith('@nestjs/')
      ) {
        const module = node.moduleSpecifier.text;
        const bindings = ts.isImportDeclaration(node) ? node.importClause?.namedBindings : node.exportClause;
        if (bindings && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings))) {
          for (const el of bindings.elements) report(module, (el.propertyName ?? el.name).text);
        } else if (bindings && ts.isNamespaceImport(bindings)) {
          namespaces.set(bindings.name.text, module);
        } else if (ts.isExportDeclaration(node) && !bindings) {
          found.push(`${file}: export * from ${module}`);
        }
      }
      if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
        const module = namespaces.get(node.expression.text);
        if (module) report(module, node.name.text);
      }
      if (
        ts.isCallExpression(node) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === 'require' &&
        node.arguments.some((a) => ts.isStringLiteral(a) && a.text.startsWith('@nestjs/'))
      ) {
        found.push(`${file}: require of a @nestjs package`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found.filter((f) => !(f.split(':')[0] in ALLOWED)).sort();
}

describe('domain errors', () => {
  it('no file under src/ but the exception filter uses an HttpException of Nest', () => {
    expect(httpExceptionUses(SRC)).toEqual([]);
  });

  it('the scan finds a planted violation (named, aliased, namespace and re-export forms)', () => {
    const root = join(mkdtempSync(join(tmpdir(), 'domain-errors-')), 'src');
    try {
      mkdirSync(join(root, 'orders'), { recursive: true });
      writeFileSync(
        join(root, 'orders', 'planted.service.ts'),
        [
          "import { Injectable, NotFoundException as Gone } from '@nestjs/common';",
          "import * as nest from '@nestjs/common';",
          "export { ConflictException } from '@nestjs/common';",
          'export const a = () => { throw new Gone(); };',
          'export const b = () => { throw new nest.ForbiddenException(); };',
          'export const c = () => nest.Injectable;',
        ].join('\n'),
      );
      expect(httpExceptionUses(root)).toEqual([
        'src/orders/planted.service.ts: ConflictException from @nestjs/common',
        'src/orders/planted.service.ts: ForbiddenException from @nestjs/common',
        'src/orders/planted.service.ts: NotFoundException from @nestjs/common',
      ]);
    } finally {
      rmSync(join(root, '..'), { recursive: true, force: true });
    }
  });

  it('domain errors are plain Error subclasses, mapped to the compat §1.5 answers by the filter', () => {
    const cases: [errors.DomainError, number, unknown, Record<string, string>?][] = [
      [
        errors.ValidationFailed.field('name', 'This field is required.'),
        400,
        { name: ['This field is required.'] },
      ],
      [errors.ValidationFailed.bare('Nope.'), 400, ['Nope.']],
      [new errors.InvalidRequest('The order is not paid.'), 400, { detail: 'The order is not paid.' }],
      [
        new errors.NotAuthenticated(),
        401,
        { detail: 'Authentication credentials were not provided.' },
        { 'WWW-Authenticate': 'Token' },
      ],
      [new errors.Refused('No.'), 403, { detail: 'No.' }],
      [new errors.PermissionDenied(), 403, { detail: 'You do not have permission to perform this action.' }],
      [new errors.ResourceInUse('In use.'), 403, { detail: 'In use.' }],
      [new errors.ParentNotFound(), 403, { detail: 'You do not have permission to perform this action.' }],
      [new errors.NotFound(), 404, { detail: 'Not found.' }],
      [
        new errors.CheckinRefused('known', { status: 'error', reason: 'unpaid' }),
        400,
        { status: 'error', reason: 'unpaid' },
      ],
      [
        new errors.CheckinRefused('unknown', { status: 'error', reason: 'invalid' }),
        404,
        { status: 'error', reason: 'invalid' },
      ],
      [errors.FieldConflict.field('value', 'Low.'), 409, { value: ['Low.'] }],
      [new errors.Conflict('Busy.'), 409, { detail: 'Busy.' }],
      [new errors.LockTimeout(), 409, { detail: errors.BUSY_DETAIL }, { 'Retry-After': '5' }],
      [new errors.TaskNotReady('running', 2), 409, { status: 'running' }, { 'Retry-After': '2' }],
      [
        new errors.Gone('This cursor is older than the change feed keeps.'),
        410,
        { detail: 'This cursor is older than the change feed keeps.' },
      ],
      [new errors.TaskFailed('Bad.', 'failed', 'shred'), 417, { status: 'failed', message: 'Bad.' }],
      [new errors.NotModified(), 304, undefined],
      [new errors.PreconditionFailed(), 412, { detail: 'Precondition failed.' }],
      [
        new errors.Throttled(7),
        429,
        { detail: 'Request was throttled. Expected available in 7 seconds.' },
        { 'Retry-After': '7' },
      ],
      [new errors.ServiceUnavailable('Down.', 10), 503, { detail: 'Down.' }, { 'Retry-After': '10' }],
    ];
    for (const [err, status, body, headers] of cases) {
      expect(err).toBeInstanceOf(Error);
      expect(err).not.toBeInstanceOf(HttpException);
      expect(domainAnswer(err)).toEqual({ status, body, ...(headers ? { headers } : {}) });
    }
    expect(domainAnswer(new errors.UnprocessableRequest('Other.'))).toEqual({
      status: 422,
      body: { detail: 'Other.' },
    });
    const stored = new errors.StoredResponse(201, { 'content-type': 'application/json' }, Buffer.from('{}'));
    expect(domainAnswer(stored)).toEqual({
      status: 201,
      headers: { 'content-type': 'application/json' },
      raw: Buffer.from('{}'),
    });
    cases.push([new errors.UnprocessableRequest('Other.'), 422, { detail: 'Other.' }]);
    // Every concrete class exported by common/errors has a case above.
    const classes = (Object.values(errors) as unknown[]).filter(
      (v): v is new (...args: never[]) => errors.DomainError =>
        typeof v === 'function' && v.prototype instanceof errors.DomainError,
    );
    const covered = new Set([...cases.map(([err]) => err.constructor), errors.StoredResponse]);
    expect(classes.filter((c) => !covered.has(c)).map((c) => c.name)).toEqual([]);
  });
});
