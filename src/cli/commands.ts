import { Command, CommandRunner, Option } from 'nest-commander';
import { UsersService } from '../auth/users.service';
import { GiftCardAcceptancesService } from '../giftcards/giftcard-acceptances.service';
import { QuotaCountCheck } from '../orders/quota-engine/quota-count-check';
import { OrganizersService } from '../organizers/organizers.service';
import { TeamsService } from '../teams/teams.service';

/** Writes one JSON object to stdout (the only stdout output of a command). */
function output(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

interface BootstrapOptions {
  organizer: string;
  name?: string;
}

/**
 * `bootstrap --organizer <slug> --name "<name>"`: creates the organizer if missing, a team "Administrators" with
 * all events and all permissions, and a new API token; prints `{"organizer", "team", "token"}`. Run again, it
 * reuses organizer and team and prints a fresh token.
 */
@Command({
  name: 'bootstrap',
  description: 'Create an organizer with an administrators team and print an API token',
})
export class BootstrapCommand extends CommandRunner {
  constructor(
    private readonly organizers: OrganizersService,
    private readonly teams: TeamsService,
  ) {
    super();
  }

  async run(_args: string[], options: BootstrapOptions): Promise<void> {
    if (!options.organizer || !/^[a-zA-Z0-9][a-zA-Z0-9.-]{0,49}$/.test(options.organizer)) {
      throw new Error('--organizer must be a slug (letters, digits, dots, dashes; at most 50 characters)');
    }
    const organizer = await this.organizers.ensure(options.organizer, options.name ?? options.organizer);
    const team = await this.teams.ensureAdministrators(organizer);
    const token = await this.teams.issueToken(team, `bootstrap ${new Date().toISOString()}`);
    output({ organizer: organizer.slug, team: team.id, token });
  }

  @Option({ flags: '--organizer <slug>', description: 'organizer slug', required: true })
  parseOrganizer(value: string): string {
    return value;
  }

  @Option({ flags: '--name <name>', description: 'organizer display name' })
  parseName(value: string): string {
    return value;
  }
}

interface CreateUserOptions {
  email: string;
  password: string;
  fullname?: string;
}

/** `create-user --email <e> --password <p> [--fullname <n>]`: prints `{"id", "email"}`. */
@Command({ name: 'create-user', description: 'Create a user account' })
export class CreateUserCommand extends CommandRunner {
  constructor(private readonly users: UsersService) {
    super();
  }

  async run(_args: string[], options: CreateUserOptions): Promise<void> {
    const user = await this.users.create(options.email, options.password, options.fullname ?? null);
    output({ id: user.id, email: user.email });
  }

  @Option({ flags: '--email <email>', description: 'e-mail address', required: true })
  parseEmail(value: string): string {
    return value;
  }

  @Option({ flags: '--password <password>', description: 'password', required: true })
  parsePassword(value: string): string {
    return value;
  }

  @Option({ flags: '--fullname <name>', description: 'full name' })
  parseFullname(value: string): string {
    return value;
  }
}

interface AcceptGiftCardsOptions {
  issuer: string;
  acceptor: string;
  reusableMedia?: boolean;
  inactive?: boolean;
}

/**
 * `accept-giftcards --issuer <slug> --acceptor <slug> [--reusable-media] [--inactive]`: the acceptor accepts the
 * gift cards of the issuer (lists, retrieves and transacts them with `include_accepted=true`); with
 * `--reusable-media` its medium lookup also finds the issuer's media. Creates or updates the acceptance; prints
 * `{"acceptor", "issuer", "active", "reusable_media", "created"}`. The API's `O/giftcards/acceptance/` needs the
 * gift card write permission on both organizers, which a team token never has; this command is the operator's way.
 */
@Command({ name: 'accept-giftcards', description: 'Let one organizer accept the gift cards of another' })
export class AcceptGiftCardsCommand extends CommandRunner {
  constructor(private readonly acceptances: GiftCardAcceptancesService) {
    super();
  }

  async run(_args: string[], options: AcceptGiftCardsOptions): Promise<void> {
    output(
      await this.acceptances.ensure(options.acceptor, options.issuer, {
        active: !options.inactive,
        reusableMedia: options.reusableMedia ?? false,
      }),
    );
  }

  @Option({
    flags: '--issuer <slug>',
    description: 'slug of the organizer issuing the gift cards',
    required: true,
  })
  parseIssuer(value: string): string {
    return value;
  }

  @Option({ flags: '--acceptor <slug>', description: 'slug of the organizer accepting them', required: true })
  parseAcceptor(value: string): string {
    return value;
  }

  @Option({
    flags: '--reusable-media',
    description: "also share the issuer's reusable media with the acceptor",
  })
  parseReusableMedia(): boolean {
    return true;
  }

  @Option({ flags: '--inactive', description: 'record the acceptance but keep it out of force' })
  parseInactive(): boolean {
    return true;
  }
}

interface CheckQuotasOptions {
  event?: number;
  dryRun?: boolean;
}

/**
 * `check-quotas [--event <id>] [--dry-run]`: recomputes the maintained quota counts (paid, pending and exited
 * positions per product, and each position's exit state) from the rows, repairs what drifted unless `--dry-run`,
 * and prints the report `{"products", "drift": [{event_id, item_id, variation_id, subevent_id, stored, actual}],
 * "exitStates", "orderTotals": [{event_id, status, stored_count, stored_total, actual_count, actual_total}],
 * "repaired"}` (`orderTotals`: the live figures' maintained order totals). The worker runs the same check every
 * `QUOTA_CHECK_INTERVAL_MS`. Exits 1 when drift was found in a dry run (for monitoring), 0 otherwise.
 */
@Command({ name: 'check-quotas', description: 'Check (and repair) the maintained quota counts' })
export class CheckQuotasCommand extends CommandRunner {
  constructor(private readonly check: QuotaCountCheck) {
    super();
  }

  async run(_args: string[], options: CheckQuotasOptions): Promise<void> {
    const report = await this.check.run({ eventId: options.event ?? null, repair: !options.dryRun });
    output(report);
    const drifted = report.drift.length > 0 || report.exitStates > 0 || report.orderTotals.length > 0;
    if (options.dryRun && drifted) process.exitCode = 1;
  }

  @Option({ flags: '--event <id>', description: 'only the event with this id' })
  parseEvent(value: string): number {
    const id = Number(value);
    if (!Number.isInteger(id) || id < 1) throw new Error('--event must be an event id (a positive integer)');
    return id;
  }

  @Option({ flags: '--dry-run', description: 'report drift without repairing it' })
  parseDryRun(): boolean {
    return true;
  }
}
