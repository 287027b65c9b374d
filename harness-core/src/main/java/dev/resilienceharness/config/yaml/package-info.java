/**
 * The YAML reader under the configuration: {@link YamlReader} parses one document into a {@link YamlNode} tree that
 * keeps every line and column, and {@link NodeReader} takes typed values out of it strictly. A team uses
 * {@link dev.resilienceharness.config.ConfigLoader} instead; this package is what it stands on.
 */
package dev.resilienceharness.config.yaml;
