// Runs the @nestjs/swagger CLI plugin inside ts-jest (same options as nest-cli.json).
const transformer = require('@nestjs/swagger/plugin');
const options = require('../nest-cli.json').compilerOptions.plugins.find(
  (p) => p.name === '@nestjs/swagger',
).options;

module.exports.name = 'nestjs-swagger-transformer';
module.exports.version = 2;
module.exports.factory = (tsCompiler) => transformer.before(options, tsCompiler.program);
