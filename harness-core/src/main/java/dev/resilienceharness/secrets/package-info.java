/**
 * Secrets in cassettes (docs secrets.md): {@link dev.resilienceharness.secrets.SecretScanner} finds them,
 * {@link dev.resilienceharness.secrets.Redactor} removes them before the record goal writes,
 * {@link dev.resilienceharness.secrets.Allowlist} and {@link dev.resilienceharness.secrets.Baseline} accept the
 * ones a team has judged, and {@link dev.resilienceharness.secrets.SarifWriter} reports them to code scanning.
 * Nothing here ever prints a secret: findings carry a masked form and a fingerprint only.
 */
package dev.resilienceharness.secrets;
