import { CommandFactory } from 'nest-commander';
import { CliModule } from './cli/cli.module';

/**
 * Admin CLI entry point (`npm run --silent cli -- <command>`). Logs go to stderr so stdout holds only the
 * command's JSON output.
 */
async function main(): Promise<void> {
  await CommandFactory.run(CliModule, {
    logger: ['error'],
    errorHandler: (err) => {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    },
    serviceErrorHandler: (err) => {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    },
  });
}

void main();
