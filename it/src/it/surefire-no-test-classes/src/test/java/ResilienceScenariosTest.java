/** Gives surefire a test class, without which it runs nothing: the harness-core engine runs resilience.yaml. */
class ResilienceScenariosTest {}
