/*
 * commands.h - the subcommands of rundown-collect.
 *
 * How to add a subcommand: write `int rd_cmd_<name>(int argc, char **argv)`
 * in collect/tool/cmd_<name>.c (argv[0] is the subcommand name; parse with
 * getopt_long, options.h for the options subcommands share; print only
 * through rundown/cli.h; return an exit code from enum rd_exit), declare it
 * here, and add a row to the table in main.c. What the subcommand does
 * belongs in the rd_collect library (the .c files of collect/), where the
 * tests reach it: the front end reads the command line, prints and exits.
 */
#ifndef RUNDOWN_COMMANDS_H
#define RUNDOWN_COMMANDS_H

int rd_cmd_import(int argc, char **argv);
int rd_cmd_run(int argc, char **argv);
int rd_cmd_http(int argc, char **argv);
int rd_cmd_suite(int argc, char **argv);
int rd_cmd_check(int argc, char **argv);
int rd_cmd_env(int argc, char **argv);
int rd_cmd_slurm(int argc, char **argv);

#endif
