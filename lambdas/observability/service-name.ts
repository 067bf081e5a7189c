/**
 * The service name on every log line and trace (Powertools' `service`), unless
 * POWERTOOLS_SERVICE_NAME says otherwise; the CDK sets that variable to this on
 * every function (lib/constructs/proofline-nodejs-function.ts). Its own module,
 * importing nothing, so the CDK app can read it without loading the logger.
 */
export const SERVICE_NAME = 'proofline';
