import { DataSource } from 'typeorm';
import { loadConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source';

/**
 * Default export for the TypeORM CLI (`typeorm migration:generate -d dist/src/database/cli-data-source.js`).
 * Kept apart from `data-source.ts` so that importing the options never reads the configuration at load time.
 */
export default new DataSource(dataSourceOptions(loadConfig().databaseUrl));
