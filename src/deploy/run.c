/* run.c: the child processes of deploy/ (rsync, git), the one place it
 * starts one: posix_spawnp with explicit arguments, never a shell, its
 * standard input fed and its output gathered through pipes. */
#include "deploy/internal.h"

#include "base/arena.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* child_env: folio's environment with c's variables put over it
 * (malloc'd array; the strings are not copied). */
static char **child_env(const char *const *add)
{
	size_t n = 0, k = 0;
	while (environ[n])
		n++;
	while (add && add[k])
		k++;
	char **env = xmalloc((n + k + 1) * sizeof *env);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		size_t name = strcspn(environ[i], "=");
		int replaced = 0;
		for (size_t j = 0; j < k && !replaced; j++)
			replaced = !strncmp(add[j], environ[i], name) && add[j][name] == '=';
		if (!replaced)
			env[m++] = environ[i];
	}
	for (size_t j = 0; j < k; j++)
		env[m++] = (char *)add[j];
	env[m] = NULL;
	return env;
}

/* pump: feeds c's input to fd in, reads out and err into c's bufs, until
 * both are closed by the child. */
static void pump(const struct deploy_cmd *c, int in, int out, int err)
{
	size_t sent = 0;
	if (in >= 0 && c->in_len == 0) {
		close(in);
		in = -1;
	}
	if (in >= 0)
		fcntl(in, F_SETFL, fcntl(in, F_GETFL) | O_NONBLOCK);
	while (out >= 0 || err >= 0 || in >= 0) {
		struct pollfd pf[3] = {{in, POLLOUT, 0}, {out, POLLIN, 0}, {err, POLLIN, 0}};
		if (poll(pf, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (in >= 0 && pf[0].revents) {
			ssize_t w = write(in, c->in + sent, c->in_len - sent);
			if (w > 0)
				sent += (size_t)w;
			if ((w < 0 && errno != EAGAIN && errno != EINTR) || sent == c->in_len) {
				close(in); /* done, or the child stopped reading */
				in = -1;
			}
		}
		int *fds[2] = {&out, &err};
		struct buf *to[2] = {c->out, c->err};
		for (int i = 0; i < 2; i++) {
			if (*fds[i] < 0 || !pf[i + 1].revents)
				continue;
			char chunk[16384];
			ssize_t r = read(*fds[i], chunk, sizeof chunk);
			if (r > 0 && to[i])
				buf_append(to[i], chunk, (size_t)r);
			if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN)) {
				close(*fds[i]);
				*fds[i] = -1;
			}
		}
	}
	if (in >= 0)
		close(in);
}

int deploy_spawn(const struct deploy_cmd *c)
{
	int p_in[2], p_out[2], p_err[2];
	if (pipe2(p_in, O_CLOEXEC) != 0)
		return -1;
	if (pipe2(p_out, O_CLOEXEC) != 0 || pipe2(p_err, O_CLOEXEC) != 0) {
		int e = errno;
		close(p_in[0]);
		close(p_in[1]);
		errno = e;
		return -1;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p_in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, p_out[1], 1);
	posix_spawn_file_actions_adddup2(&fa, p_err[1], 2);
	char **env = child_env(c->env);
	pid_t pid;
	/* a child that stops reading its input must not kill folio */
	struct sigaction ign = {.sa_handler = SIG_IGN}, was;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &was);
	int rc = posix_spawnp(&pid, c->argv[0], &fa, NULL, (char *const *)c->argv, env);
	posix_spawn_file_actions_destroy(&fa);
	free(env);
	close(p_in[0]);
	close(p_out[1]);
	close(p_err[1]);
	if (rc != 0) {
		close(p_in[1]);
		close(p_out[0]);
		close(p_err[0]);
		sigaction(SIGPIPE, &was, NULL);
		errno = rc;
		return -1;
	}
	pump(c, p_in[1], p_out[0], p_err[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGPIPE, &was, NULL);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

const char *deploy_last_line(const struct buf *b)
{
	static char line[1024];
	line[0] = '\0';
	if (!b || !b->len)
		return line;
	size_t end = b->len;
	while (end && (b->p[end - 1] == '\n' || b->p[end - 1] == '\r' || b->p[end - 1] == ' '))
		end--;
	size_t start = end;
	while (start && b->p[start - 1] != '\n')
		start--;
	size_t n = end - start < sizeof line - 1 ? end - start : sizeof line - 1;
	memcpy(line, b->p + start, n);
	line[n] = '\0';
	deploy_scrub(line);
	return line;
}
