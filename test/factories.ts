import { generateToken, hashToken } from '../src/auth/credentials.service';
import { Event } from '../src/organizers/event.entity';
import { OrganizersService } from '../src/organizers/organizers.service';
import { TeamApiToken } from '../src/teams/team-api-token.entity';
import { Team } from '../src/teams/team.entity';
import { TeamsService } from '../src/teams/teams.service';
import type { TestApp } from './harness';

/** An organizer with an all-powerful team token, as `npm run cli -- bootstrap` makes it. */
export async function bootstrapOrganizer(
  t: TestApp,
  slug: string,
  name = slug,
): Promise<{ token: string; teamId: number; organizerId: number }> {
  const organizer = await t.app.get(OrganizersService).ensure(slug, name);
  const teams = t.app.get(TeamsService);
  const team = await teams.ensureAdministrators(organizer);
  const token = await teams.issueToken(team, 'test');
  return { token, teamId: team.id, organizerId: organizer.id };
}

export interface TeamSpec {
  allEvents?: boolean;
  /** Event slugs of the organizer. */
  limitEvents?: string[];
  allEventPermissions?: boolean;
  eventPermissions?: string[];
  allOrganizerPermissions?: boolean;
  organizerPermissions?: string[];
}

/**
 * A team with exactly the given grants and one active token for it (fixture written straight to the tables so
 * permission tests do not depend on the team API they may be testing).
 */
export async function teamToken(t: TestApp, organizerSlug: string, spec: TeamSpec): Promise<string> {
  const organizer = await t.app.get(OrganizersService).ensure(organizerSlug, organizerSlug);
  const team = await t.db.getRepository(Team).save(
    t.db.getRepository(Team).create({
      organizerId: organizer.id,
      name: `team-${Math.random().toString(36).slice(2, 8)}`,
      allEvents: spec.allEvents ?? false,
      allEventPermissions: spec.allEventPermissions ?? false,
      limitEventPermissions: spec.eventPermissions ?? [],
      allOrganizerPermissions: spec.allOrganizerPermissions ?? false,
      limitOrganizerPermissions: spec.organizerPermissions ?? [],
    }),
  );
  for (const slug of spec.limitEvents ?? []) {
    const event = await t.db.getRepository(Event).findOneByOrFail({ organizerId: organizer.id, slug });
    await t.db.query('INSERT INTO team_limit_event (team_id, event_id) VALUES ($1, $2)', [team.id, event.id]);
  }
  const token = generateToken();
  await t.db
    .getRepository(TeamApiToken)
    .insert({ teamId: team.id, name: 'test', tokenHash: hashToken(token), active: true });
  return token;
}

/** `Authorization` header value for a team token. */
export const auth = (token: string): string => `Token ${token}`;

/** Creates an event through the API and returns its wire form. */
export async function createEvent(
  t: TestApp,
  token: string,
  organizer: string,
  body: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const res = await t
    .http()
    .post(`/api/v1/organizers/${organizer}/events/`)
    .set('Authorization', auth(token))
    .send({
      name: { en: 'Sample Conference' },
      slug: 'sample',
      currency: 'EUR',
      date_from: '2030-12-27T10:00:00Z',
      ...body,
    });
  if (res.status !== 201) throw new Error(`createEvent: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Record<string, unknown>;
}

/** An event series (`has_subevents: true`) created through the API; returns its wire form. */
export async function createSeries(
  t: TestApp,
  token: string,
  organizer: string,
  body: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  return createEvent(t, token, organizer, { has_subevents: true, ...body });
}

/**
 * A device of `organizer` created and initialized through the API (`O/devices/`, `device/initialize`); returns its
 * `device_id` and API token (send it as `Authorization: Device <token>`).
 */
export async function createDevice(
  t: TestApp,
  token: string,
  organizer: string,
  body: Record<string, unknown> = {},
): Promise<{ deviceId: number; apiToken: string }> {
  const created = await t
    .http()
    .post(`/api/v1/organizers/${organizer}/devices/`)
    .set('Authorization', auth(token))
    .send({ name: 'Scanner', all_events: true, limit_events: [], ...body });
  if (created.status !== 201)
    throw new Error(`createDevice: ${created.status} ${JSON.stringify(created.body)}`);
  const { device_id: deviceId, initialization_token: setup } = created.body as {
    device_id: number;
    initialization_token: string;
  };
  const init = await t.http().post('/api/v1/device/initialize').send({
    token: setup,
    hardware_brand: 'Zebra',
    hardware_model: 'TC25',
    software_brand: 'pretixSCAN',
    software_version: '1.21.0',
  });
  if (init.status !== 200) throw new Error(`device/initialize: ${init.status} ${JSON.stringify(init.body)}`);
  return { deviceId, apiToken: (init.body as { api_token: string }).api_token };
}
