import { readdirSync, readFileSync } from 'fs';
import { join, relative, sep } from 'path';
import * as ts from 'typescript';

/**
 * Each bounded context owns its tables (architecture.md "Layout"; style.md "stop these" 1): raw SQL in
 * `src/<context>/` names only tables whose entity lives in that context. Tables are mapped to contexts by where
 * their `*.entity.ts` declares them (`@Entity('name')`, `@JoinTable({ name })`); SQL is every string literal of a
 * source file (template parts included), and a table is "named" after FROM, JOIN, UPDATE, INTO or DELETE FROM.
 * Other contexts ask the owner's exported services or the ports it provides.
 */

const SRC = join(__dirname, '..', 'src');

/**
 * Known violations outside the sales path, being removed by the boundary cleanup (architecture.md "Layout"). Each entry is
 * `<file> -> <table>`; an entry that no longer occurs fails the test too, so the list only shrinks.
 */
const BEING_REMOVED_BY_THE_BOUNDARY_CLEANUP: readonly string[] = [];

/**
 * Deliberate seams, each documented in its file: the `checkin` tables belong to the check-in context, which sits
 * above orders; orders reads them in one queries file (`checkin-seam.queries.ts`): the check-ins of presented
 * positions, the exit states, and which positions a check-in list admits.
 */
const SEAMS: readonly string[] = [
  'src/orders/checkin-seam/checkin-seam.queries.ts -> checkin',
  'src/orders/checkin-seam/checkin-seam.queries.ts -> checkin_list_item',
  // The audit log API's read model (README "Audit log"): one statement per page names the actors (token, user,
  // device, OAuth application) and the keys of objects keyed by something else than their id (order code, event
  // and organizer slug, customer and sales channel identifier, device number), read-only, as correlated subqueries.
  ...[
    'team_api_token',
    'user_account',
    'device',
    'oauth_application',
    'orders',
    'event',
    'organizer',
    'customer',
    'sales_channel',
  ].map((table) => `src/sync/logs/audit-log.queries.ts -> ${table}`),
];

function files(dir: string, suffix: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return files(path, suffix);
    return e.name.endsWith(suffix) ? [path] : [];
  });
}

/** The context of a source file: its first folder under `src/` (files directly in `src/` have none). */
function contextOf(path: string): string | null {
  const parts = relative(SRC, path).split(sep);
  return parts.length > 1 ? parts[0] : null;
}

/** Table name → owning context, from the entity declarations. */
function tableOwners(): Map<string, string> {
  const owners = new Map<string, string>();
  for (const path of files(SRC, '.entity.ts')) {
    const text = readFileSync(path, 'utf8');
    const names = [
      ...text.matchAll(/@Entity\(\s*'([a-z_0-9]+)'/g),
      ...text.matchAll(/@JoinTable\(\s*\{\s*name:\s*'([a-z_0-9]+)'/g),
    ].map((m) => m[1]);
    for (const name of names) owners.set(name, contextOf(path)!);
  }
  return owners;
}

/** Every string literal (and template text) of a TypeScript file. */
function stringsOf(path: string): string[] {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) out.push(node.text);
    else if (ts.isTemplateExpression(node)) {
      out.push([node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ? '));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Tables named by SQL in a string. */
export function tablesNamed(sql: string): string[] {
  return [...sql.matchAll(/\b(?:FROM|JOIN|UPDATE|INTO)\s+"?([a-z_][a-z_0-9]*)"?/gi)].map((m) => m[1]);
}

/** `<file> -> <table>` for every table of another context named in `src/<context>/`. */
function violations(): string[] {
  const owners = tableOwners();
  const found = new Set<string>();
  for (const path of files(SRC, '.ts')) {
    const context = contextOf(path);
    if (context === null || path.endsWith('.spec.ts')) continue;
    for (const text of stringsOf(path)) {
      for (const table of tablesNamed(text)) {
        const owner = owners.get(table);
        if (owner !== undefined && owner !== context) {
          found.add(`${relative(join(SRC, '..'), path).split(sep).join('/')} -> ${table}`);
        }
      }
    }
  }
  return [...found].sort();
}

describe('table ownership', () => {
  it('maps every table to the context of its entity', () => {
    const owners = tableOwners();
    expect(owners.get('voucher')).toBe('catalogue');
    expect(owners.get('quota_item')).toBe('catalogue');
    expect(owners.get('order_position')).toBe('orders');
    expect(owners.get('question_answer_option')).toBe('orders');
    expect(owners.get('checkin')).toBe('checkin');
    expect(owners.get('event')).toBe('organizers');
  });

  it('finds tables after FROM, JOIN, UPDATE, INTO and DELETE FROM', () => {
    expect(tablesNamed('SELECT 1 FROM voucher v JOIN quota q ON q.id = v.quota_id')).toEqual([
      'voucher',
      'quota',
    ]);
    expect(
      tablesNamed('UPDATE "orders" SET x = 1; DELETE FROM cart_position; INSERT INTO log_entry'),
    ).toEqual(['orders', 'cart_position', 'log_entry']);
  });

  it('lets raw SQL name only tables of its own context (known exceptions listed, and shrinking)', () => {
    const allowed = new Set([...BEING_REMOVED_BY_THE_BOUNDARY_CLEANUP, ...SEAMS]);
    const found = violations();
    expect(found.filter((v) => !allowed.has(v))).toEqual([]);
    expect([...allowed].filter((v) => !found.includes(v))).toEqual([]);
  });
});
