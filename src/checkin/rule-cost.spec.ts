import { evaluateRules, RuleContext, rulesProblem } from './checkin-logic';
import {
  countNodes,
  RULE_MAX_ITERATION_NESTING,
  RULE_MAX_LIST,
  RULE_MAX_NODES,
  RULE_MAX_STRING,
  RULE_OP_BUDGET,
  worstCaseCost,
} from './rule-cost';

const ctx: RuleContext = {
  itemId: 7,
  variationId: null,
  at: new Date('2030-03-04T19:30:00Z'),
  timezone: 'Europe/Berlin',
  scans: [{ type: 'entry', datetime: new Date('2030-03-03T10:00:00Z') }],
  dateFrom: new Date('2030-03-04T18:00:00Z'),
  dateTo: null,
  dateAdmission: null,
};
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
/** `depth` nested `some` over `len` numbers around a false comparison: cost grows as len^depth. */
const nested = (depth: number, len: number): Record<string, unknown> =>
  depth === 0 ? { '==': [1, 2] } : { some: [range(len), nested(depth - 1, len)] };

/** Rules as pretix's rule editor writes them. */
const editorRules: Record<string, object> = {
  products: {
    inList: [
      { var: 'product' },
      { objectList: range(300).map((i) => ({ lookup: ['product', String(i + 1), `Product ${i}`] })) },
    ],
  },
  window: {
    and: [
      { isAfter: [{ var: 'now' }, { buildTime: ['customtime', '09:00'] }, 15] },
      { isBefore: [{ var: 'now' }, { buildTime: ['date_to'] }] },
      { '<': [{ var: 'entries_today' }, 1] },
    ],
  },
  weekdays: {
    or: range(7).map((d) => ({
      and: [
        { '==': [{ var: 'now_isoweekday' }, d + 1] },
        { isAfter: [{ var: 'now' }, { buildTime: ['customtime', '08:00'] }] },
        { isBefore: [{ var: 'now' }, { buildTime: ['customtime', '18:00'] }] },
        { '!': { inList: [{ var: 'variation' }, { objectList: [{ lookup: ['variation', '3', 'Kid'] }] }] } },
      ],
    })),
  },
  entries: {
    and: [
      { '<=': [{ entries_days_since: [{ buildTime: ['custom', '2030-03-01T00:00:00Z'] }] }, 3] },
      { '>': [{ var: 'minutes_since_last_entry' }, 30] },
      { '==': [{ var: 'entry_status' }, 'absent'] },
    ],
  },
};

describe('check-in rule bounds', () => {
  it('counts the worst case: iterations multiply their body by the length of their list', () => {
    expect(worstCaseCost({ '==': [{ var: 'product' }, 1] })).toBe(8);
    const one = worstCaseCost(nested(1, 10));
    const two = worstCaseCost(nested(2, 10));
    const three = worstCaseCost(nested(3, 10));
    expect(two).toBeGreaterThan(9 * one);
    expect(three).toBeGreaterThan(9 * two);
    // Short-circuits do not count: `or` costs all of its branches.
    expect(worstCaseCost({ or: [true, nested(1, 10)] })).toBeGreaterThan(one);
    expect(countNodes({ '==': [{ var: 'product' }, 1] })).toBe(5);
  });

  it('accepts what pretix’s rule editor writes, well within the budget', () => {
    for (const [name, rules] of Object.entries(editorRules)) {
      expect([name, rulesProblem(rules)]).toEqual([name, null]);
      expect(worstCaseCost(rules)).toBeLessThan(RULE_OP_BUDGET / 2);
    }
  });

  it('refuses rules past a limit, naming it', () => {
    expect(rulesProblem(nested(3, 2))).toBe(
      `Iterations (some, all, none, map, filter, reduce) are nested 3 deep in the rules, at most ${RULE_MAX_ITERATION_NESTING} are allowed.`,
    );
    expect(rulesProblem(nested(2, 300))).toMatch(
      new RegExp(
        `^Rules are too costly to evaluate: up to \\d+ operations per scan, at most ${RULE_OP_BUDGET} `,
      ),
    );
    expect(rulesProblem({ inList: [1, range(RULE_MAX_LIST + 1)] })).toBe(
      `A list in the rules has ${RULE_MAX_LIST + 1} entries, at most ${RULE_MAX_LIST} are allowed.`,
    );
    expect(rulesProblem({ '==': ['x'.repeat(RULE_MAX_STRING + 1), 1] })).toMatch(/at most 1000 are allowed/);
    const pair = () => ({ and: [{ '!': [true] }, { '!': [true] }] }); // 8 values
    const big = { or: range(RULE_MAX_NODES / 8).map(pair) };
    expect(rulesProblem(big)).toMatch(
      new RegExp(`^Rules are too large: \\d+ values, at most ${RULE_MAX_NODES}`),
    );
    // A default value of `var` is evaluated, so it is checked too.
    expect(rulesProblem({ var: ['product', { log: 1 }] })).toBe('Unknown operation "log".');
    expect(rulesProblem({ var: ['product', nested(3, 2)] })).toMatch(/nested 3 deep/);
  });

  it('the worst case bounds what an evaluation spends (random rules)', () => {
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const leaf = (): unknown =>
      [() => random(5), () => 'ab', () => ({ var: 'entries_number' }), () => range(random(4)), () => null][
        random(5)
      ]();
    const ops = ['==', '<', '!', 'and', 'or', 'if', 'in', 'cat', 'merge', 'min', '+', 'substr', 'missing'];
    const iterations = ['some', 'all', 'none', 'map', 'filter', 'reduce'];
    const gen = (depth: number): unknown => {
      if (depth === 0 || random(4) === 0) return leaf();
      if (random(3) === 0) {
        const op = iterations[random(iterations.length)];
        return { [op]: [gen(depth - 1), gen(depth - 1), ...(op === 'reduce' ? [gen(depth - 1)] : [])] };
      }
      return { [ops[random(ops.length)]]: range(1 + random(3)).map(() => gen(depth - 1)) };
    };
    for (let i = 0; i < 400; i++) {
      const rules = { or: [gen(5), false] };
      const spent = evaluateRules(rules, ctx, Number.MAX_SAFE_INTEGER).ops;
      expect(spent).toBeLessThanOrEqual(worstCaseCost(rules));
    }
  });

  it('the worst rules allowed stay within the budget when evaluated', () => {
    // Wall-clock time is asserted on the real API process (test/checkin-hardening.e2e-spec.ts): under Jest the
    // evaluator runs many times slower than in production.
    let side = 1;
    while (rulesProblem(nested(2, side + 1)) === null) side += 1;
    const worst = [nested(2, side), { or: range(1600).map((i) => ({ '==': [{ var: 'product' }, i] })) }];
    for (const rules of worst) {
      expect(rulesProblem(rules)).toBeNull();
      const { ops, exhausted } = evaluateRules(rules, ctx);
      expect(exhausted).toBe(false);
      expect(ops).toBeLessThanOrEqual(RULE_OP_BUDGET);
    }
    expect(evaluateRules(nested(2, side), ctx).ops).toBeGreaterThan(RULE_OP_BUDGET / 2);
  });

  it('stops an evaluation past its budget and refuses the scan', () => {
    const attack = nested(5, 10); // 10^5 inner comparisons: refused on write, stopped if it were stored anyway
    const stopped = evaluateRules(attack, ctx);
    expect([stopped.admit, stopped.exhausted]).toEqual([false, true]);
    expect(stopped.ops).toBeGreaterThan(RULE_OP_BUDGET);
    expect(stopped.ops).toBeLessThan(RULE_OP_BUDGET + 100);
    expect(evaluateRules(attack, ctx, Number.MAX_SAFE_INTEGER).exhausted).toBe(false);
  });
});
