import { applyLegacyFlags, LEGACY_EVENT_FLAGS, LEGACY_ORGANIZER_FLAGS } from '../auth/permissions';
import { mergeInput } from '../common/persistence/write';
import type { CreateTeamDto } from './team.dto';

/** The stored fields of a team in wire form (spec "Team"), without the derived legacy booleans. */
export interface TeamFields {
  name: string;
  all_events: boolean;
  /** Event slugs. */
  limit_events: string[];
  require_2fa: boolean;
  all_event_permissions: boolean;
  limit_event_permissions: string[];
  all_organizer_permissions: boolean;
  limit_organizer_permissions: string[];
}

/** Defaults of the optional team fields (compat §3.1); PUT resets omitted ones to these. */
export const TEAM_DEFAULTS: Omit<TeamFields, 'name'> = {
  all_events: false,
  limit_events: [],
  require_2fa: false,
  all_event_permissions: false,
  limit_event_permissions: [],
  all_organizer_permissions: false,
  limit_organizer_permissions: [],
};

const FIELD_NAMES = ['name', ...Object.keys(TEAM_DEFAULTS)] as (keyof TeamFields)[];

/** The legacy booleans a body sent, restricted to one mapping's flags. */
function sentFlags(
  body: Partial<CreateTeamDto>,
  mapping: Record<string, readonly string[]>,
): Partial<Record<string, boolean>> {
  const flags: Partial<Record<string, boolean>> = {};
  for (const flag of Object.keys(mapping)) {
    const value = (body as Record<string, unknown>)[flag];
    if (typeof value === 'boolean') flags[flag] = value;
  }
  return flags;
}

/**
 * The team fields a write results in (compat §3.1, §2.4): the real fields of the body over `base` (the defaults
 * for create/PUT, the stored state for PATCH), then the legacy `can_*` booleans of the body applied to the
 * permission lists (`true` adds the mapped names, `false` removes them). Lists come out de-duplicated and sorted.
 */
export function resolveTeamInput(body: Partial<CreateTeamDto>, base: TeamFields): TeamFields {
  const real: Partial<TeamFields> = {};
  for (const key of FIELD_NAMES) {
    const value = body[key];
    if (value !== undefined) (real as Record<string, unknown>)[key] = value;
  }
  const merged = mergeInput(real, base);
  return {
    ...merged,
    limit_events: [...new Set(merged.limit_events)],
    limit_event_permissions: applyLegacyFlags(
      merged.limit_event_permissions,
      sentFlags(body, LEGACY_EVENT_FLAGS),
      LEGACY_EVENT_FLAGS,
    ),
    limit_organizer_permissions: applyLegacyFlags(
      merged.limit_organizer_permissions,
      sentFlags(body, LEGACY_ORGANIZER_FLAGS),
      LEGACY_ORGANIZER_FLAGS,
    ),
  };
}
