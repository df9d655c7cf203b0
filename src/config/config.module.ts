import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig, loadConfig } from './app-config';

/** Provides the validated {@link AppConfig} to every module of a process. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(overrides: Partial<AppConfig> = {}): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: AppConfig, useValue: loadConfig(process.env, overrides) }],
      exports: [AppConfig],
    };
  }
}
