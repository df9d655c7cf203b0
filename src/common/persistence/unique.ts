import { QueryFailedError } from 'typeorm';
import { ValidationFailed } from '../errors';

/**
 * Runs a write and turns a violation of the named unique index into a field error. The service checks
 * uniqueness first for a friendly answer; this covers the race in which two requests pass that check together
 * (the index decides, the loser gets the same 400 instead of a 500).
 */
export async function uniqueAsValidation<T>(
  index: string,
  field: string,
  message: string,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof QueryFailedError) {
      const driver = err.driverError as { code?: string; constraint?: string };
      if (driver.code === '23505' && driver.constraint === index)
        throw ValidationFailed.field(field, message);
    }
    throw err;
  }
}
