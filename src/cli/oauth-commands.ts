import { Command, CommandRunner, Option } from 'nest-commander';
import { UsersService } from '../auth/users.service';
import { ValidationFailed } from '../common/errors';
import { OAuthApplicationsService } from '../oauth/oauth-applications.service';

interface CreateOAuthApplicationOptions {
  user: string;
  name: string;
  redirectUri: string[];
  public?: boolean;
}

/**
 * `create-oauth-application --user <email> --name <name> --redirect-uri <uri> [--redirect-uri <uri> ...]
 * [--public]` (README "Admin CLI"): registers a confidential OAuth application owned by the user and prints
 * `{"client_id", "client_secret"}` and nothing else on stdout. The secret is shown this once. `--public`: a
 * public client (no secret, `client_secret` is empty; PKCE required, README "Security").
 */
@Command({ name: 'create-oauth-application', description: 'Register an OAuth application for a user' })
export class CreateOAuthApplicationCommand extends CommandRunner {
  constructor(
    private readonly users: UsersService,
    private readonly apps: OAuthApplicationsService,
  ) {
    super();
  }

  async run(_args: string[], options: CreateOAuthApplicationOptions): Promise<void> {
    const user = await this.users.findActiveByEmail(options.user);
    if (!user) throw new Error(`No active user with the e-mail address ${options.user}`);
    try {
      const app = await this.apps.register(
        user.id,
        options.name ?? '',
        options.redirectUri ?? [],
        options.public !== true,
      );
      process.stdout.write(
        `${JSON.stringify({ client_id: app.clientId, client_secret: app.clientSecret })}\n`,
      );
    } catch (err) {
      if (err instanceof ValidationFailed) throw new Error(JSON.stringify(err.errors));
      throw err;
    }
  }

  @Option({ flags: '--user <email>', description: 'e-mail address of the owning user', required: true })
  parseUser(value: string): string {
    return value;
  }

  @Option({ flags: '--name <name>', description: 'application name', required: true })
  parseName(value: string): string {
    return value;
  }

  @Option({ flags: '--public', description: 'a public client: no secret, PKCE required' })
  parsePublic(): boolean {
    return true;
  }

  @Option({ flags: '--redirect-uri <uri>', description: 'a redirect URI (repeatable)', required: true })
  parseRedirectUri(value: string, previous: string[] = []): string[] {
    return [...previous, value];
  }
}
