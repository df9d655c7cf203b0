import { RuleContext, rulesAdmit, rulesProblem } from './checkin-logic';

const at = new Date('2030-03-04T19:30:00Z'); // Monday, 20:30 in Berlin
const ctx = (over: Partial<RuleContext> = {}): RuleContext => ({
  itemId: 7,
  variationId: null,
  at,
  timezone: 'Europe/Berlin',
  scans: [],
  dateFrom: new Date('2030-03-04T18:00:00Z'),
  dateTo: null,
  dateAdmission: null,
  ...over,
});

describe('check-in rules (JsonLogic)', () => {
  it('empty rules admit; malformed ones are named', () => {
    expect(rulesAdmit({}, ctx())).toBe(true);
    expect(rulesProblem({})).toBeNull();
    expect(rulesProblem([])).toBe('Rules must be an object.');
    expect(rulesProblem({ log: 1 })).toBe('Unknown operation "log".');
    expect(rulesProblem({ '==': [{ var: 'x' }, 1] })).toBe('Unknown variable "x".');
    expect(rulesProblem({ isAfter: [{ var: 'now' }, { buildTime: ['customtime', 'late'] }] })).toMatch(
      /customtime/,
    );
  });

  it('customtime is on the scan day in the event zone; date_admission falls back to date_from', () => {
    const after = (time: string) => ({ isAfter: [{ var: 'now' }, { buildTime: ['customtime', time] }] });
    expect(rulesAdmit(after('20:00'), ctx())).toBe(true);
    expect(rulesAdmit(after('21:00'), ctx())).toBe(false);
    const admission = { isAfter: [{ var: 'now' }, { buildTime: ['date_admission'] }] };
    expect(rulesAdmit(admission, ctx())).toBe(true);
    expect(rulesAdmit(admission, ctx({ dateAdmission: new Date('2030-03-04T20:00:00Z') }))).toBe(false);
  });

  it('weekday, entry days, entries since, entry status', () => {
    const scans = [
      { type: 'entry', datetime: new Date('2030-03-02T10:00:00Z') },
      { type: 'entry', datetime: new Date('2030-03-03T10:00:00Z') },
      { type: 'exit', datetime: new Date('2030-03-03T11:00:00Z') },
      { type: 'entry', datetime: new Date('2030-03-03T12:00:00Z') },
    ];
    expect(rulesAdmit({ '==': [{ var: 'now_isoweekday' }, 1] }, ctx())).toBe(true);
    expect(rulesAdmit({ '==': [{ var: 'entries_days' }, 2] }, ctx({ scans }))).toBe(true);
    expect(rulesAdmit({ '==': [{ var: 'entries_number' }, 3] }, ctx({ scans }))).toBe(true);
    const since = { entries_since: [{ buildTime: ['custom', '2030-03-03T00:00:00Z'] }] };
    expect(rulesAdmit({ '==': [since, 2] }, ctx({ scans }))).toBe(true);
    const daysBefore = { entries_days_before: [{ buildTime: ['custom', '2030-03-03T00:00:00Z'] }] };
    expect(rulesAdmit({ '==': [daysBefore, 1] }, ctx({ scans }))).toBe(true);
    expect(rulesAdmit({ '==': [{ var: 'entry_status' }, 'present'] }, ctx({ scans }))).toBe(true);
    expect(rulesAdmit({ '==': [{ var: 'minutes_since_first_entry' }, -1] }, ctx())).toBe(true);
  });
});
