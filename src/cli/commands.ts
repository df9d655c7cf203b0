import { Command, CommandRunner, Option } from 'nest-commander';
import { UsersService } from '../auth/users.service';
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
