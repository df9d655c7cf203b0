import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source';

/** The one PostgreSQL connection pool of a process. */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        ...dataSourceOptions(config.databaseUrl, config.lockTimeoutMs, {
          size: config.databasePoolSize,
          timeoutMs: config.databasePoolTimeoutMs,
        }),
        autoLoadEntities: false,
      }),
    }),
  ],
})
export class DatabaseModule {}
