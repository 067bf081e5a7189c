/**
 * The console's files as a CDK asset: web/build-console.ts builds them (the same build `npm start`
 * serves from memory) and writes them into the asset's staging directory, `index.html` beside
 * `assets/<name>-<hash>.{js,css}`. The build runs in this process during synthesis, so `cdk synth`
 * needs neither Docker nor a separate build step; the CDK tests that skip bundling skip it too.
 *
 * The asset is hashed by its output, not by web/: the console imports code from outside web/ (the
 * domain's vocabulary), and an unchanged build must not redeploy.
 */
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import { Asset } from 'aws-cdk-lib/aws-s3-assets';
import type { Construct } from 'constructs';
import { buildConsoleSync, writeConsoleFiles } from '../../web/build-console';
import { repoPath } from '../paths';

export class ConsoleAsset extends Asset {
  constructor(scope: Construct, id: string) {
    super(scope, id, {
      path: repoPath('web'),
      assetHashType: AssetHashType.OUTPUT,
      bundling: {
        // Required by the type and never pulled: the local build below always succeeds or throws.
        image: DockerImage.fromRegistry('scratch'),
        local: {
          tryBundle(outputDir: string): boolean {
            writeConsoleFiles(buildConsoleSync(), outputDir);
            return true;
          },
        },
      },
    });
  }
}
