import { readdirSync, readFileSync, statSync } from 'fs';
import { join, relative } from 'path';

const ROOT = join(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Files of `src/` (relative paths) whose text matches `pattern`. */
function filesMatching(pattern: RegExp): string[] {
  return sources(join(ROOT, 'src'))
    .filter((path) => pattern.test(readFileSync(path, 'utf8')))
    .map((path) => relative(ROOT, path));
}

/**
 * Module rules (architecture.md "Layout"; style.md "In this codebase: stop these" 2) that dependency-cruiser
 * cannot see: no global module but configuration (every context imports what it uses), and ports are mandatory (no
 * `@Optional()` injection that a missing provider would turn into a silently skipped check).
 */
describe('module rules', () => {
  it('has no @Global() module except configuration', () => {
    expect(filesMatching(/@Global\(\)/)).toEqual(['src/config/config.module.ts']);
  });

  it('injects no provider as @Optional() (the decorator of Nest, not the validator of the same name)', () => {
    const optionalInjection = /import\s*\{[^}]*\bOptional\b[^}]*\}\s*from\s*'@nestjs\/common'/;
    expect(filesMatching(optionalInjection)).toEqual([]);
  });
});
