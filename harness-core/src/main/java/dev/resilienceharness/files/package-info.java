/** Reading the files the goals are given: regular files only, each within a bound, never a pipe or a device. */
package dev.resilienceharness.files;
