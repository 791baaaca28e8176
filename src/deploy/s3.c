/* s3.c: the S3 target: each upload a PUT of the object BUCKET/PREFIX+PATH
 * (path-style, which every S3-compatible service takes) with its
 * Content-Type and Cache-Control (plan.c's rule), each deletion a DELETE,
 * signed with AWS Signature Version 4 by libcurl (CURLOPT_AWS_SIGV4), one
 * connection kept for all. The credentials come from the environment
 * (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN) or the
 * shared credentials file (~/.aws/credentials, AWS_SHARED_CREDENTIALS_FILE;
 * its profile AWS_PROFILE or default), never from folio.yml; they are
 * handed to libcurl and never printed. */
#include "deploy/internal.h"

#include "base/arena.h"
#include "base/version.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

struct s3cred {
	char id[256], secret[256], token[4096];
	const char *from; /* where they were found, for messages */
};

/* ini_value: in the INI text, key's value in section [profile] (copied to
 * out, n bytes), or 0 when it is not there */
static int ini_value(const char *text, const char *profile, const char *key, char *out, size_t n)
{
	int in = 0;
	for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		size_t len = strcspn(line, "\r\n");
		while (len && (*line == ' ' || *line == '\t')) {
			line++;
			len--;
		}
		if (len && line[0] == '[') {
			const char *end = memchr(line, ']', len);
			in = end && (size_t)(end - line - 1) == strlen(profile) && !memcmp(line + 1, profile, strlen(profile));
			continue;
		}
		size_t kl = strlen(key);
		if (!in || len <= kl || memcmp(line, key, kl) || !strchr(" \t=", line[kl]))
			continue;
		const char *v = line + kl;
		while (v < line + len && (*v == ' ' || *v == '\t' || *v == '='))
			v++;
		size_t vl = (size_t)(line + len - v);
		while (vl && (v[vl - 1] == ' ' || v[vl - 1] == '\t'))
			vl--;
		if (!vl || vl >= n)
			return 0;
		memcpy(out, v, vl);
		out[vl] = '\0';
		return 1;
	}
	return 0;
}

/* creds: the credentials, from the environment, else the shared file. 0,
 * or -1 when there are none (reported). */
static int creds(struct diag *d, struct s3cred *c)
{
	memset(c, 0, sizeof *c);
	const char *id = getenv("AWS_ACCESS_KEY_ID"), *secret = getenv("AWS_SECRET_ACCESS_KEY");
	const char *token = getenv("AWS_SESSION_TOKEN");
	if (id && *id && secret && *secret && strlen(id) < sizeof c->id && strlen(secret) < sizeof c->secret) {
		snprintf(c->id, sizeof c->id, "%s", id);
		snprintf(c->secret, sizeof c->secret, "%s", secret);
		if (token && strlen(token) < sizeof c->token)
			snprintf(c->token, sizeof c->token, "%s", token);
		c->from = "the environment";
		return 0;
	}
	char path[4096];
	const char *file = getenv("AWS_SHARED_CREDENTIALS_FILE"), *home = getenv("HOME");
	const char *profile = getenv("AWS_PROFILE");
	if (!profile || !*profile)
		profile = "default";
	if (file && *file)
		snprintf(path, sizeof path, "%s", file);
	else
		snprintf(path, sizeof path, "%s/.aws/credentials", home ? home : "");
	size_t len;
	char *text = read_file_max(path, 1 << 20, &len);
	if (text && ini_value(text, profile, "aws_access_key_id", c->id, sizeof c->id) &&
	    ini_value(text, profile, "aws_secret_access_key", c->secret, sizeof c->secret)) {
		ini_value(text, profile, "aws_session_token", c->token, sizeof c->token);
		c->from = "the shared credentials file";
		free(text);
		return 0;
	}
	free(text);
	deploy_error(d, NULL, "no S3 credentials (hint: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or give "
		     "profile [%s] of ~/.aws/credentials its aws_access_key_id and aws_secret_access_key; never in "
		     "folio.yml)", profile);
	return -1;
}

/* content_type: the Content-Type of a file, by its extension (a literal) */
static const char *content_type(const char *rel)
{
	static const char *const types[][2] = {
		{".html", "text/html; charset=utf-8"}, {".htm", "text/html; charset=utf-8"},
		{".css", "text/css; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
		{".mjs", "text/javascript; charset=utf-8"}, {".json", "application/json"},
		{".xml", "application/xml"}, {".atom", "application/atom+xml"}, {".rss", "application/rss+xml"},
		{".txt", "text/plain; charset=utf-8"}, {".md", "text/markdown; charset=utf-8"},
		{".svg", "image/svg+xml"}, {".png", "image/png"}, {".jpg", "image/jpeg"}, {".jpeg", "image/jpeg"},
		{".gif", "image/gif"}, {".webp", "image/webp"}, {".avif", "image/avif"}, {".ico", "image/x-icon"},
		{".woff2", "font/woff2"}, {".woff", "font/woff"}, {".ttf", "font/ttf"}, {".otf", "font/otf"},
		{".pdf", "application/pdf"}, {".mp4", "video/mp4"}, {".webm", "video/webm"}, {".mp3", "audio/mpeg"},
		{".wasm", "application/wasm"}, {".glb", "model/gltf-binary"}, {".gltf", "model/gltf+json"},
		{".bib", "text/plain; charset=utf-8"}, {".csv", "text/csv; charset=utf-8"},
	};
	const char *dot = strrchr(rel, '.'), *slash = strrchr(rel, '/');
	if (dot && (!slash || dot > slash))
		for (size_t i = 0; i < sizeof types / sizeof *types; i++)
			if (!strcasecmp(dot, types[i][0]))
				return types[i][1];
	return "application/octet-stream";
}

/* The connection, the request being made and its answer. */
struct s3 {
	struct diag *d;
	CURL *h;
	struct s3cred cred;
	char sigv4[128];
	const char *base;   /* ENDPOINT/BUCKET/ (no trailing slash on the endpoint) */
	const char *prefix; /* of the keys */
	struct buf url, body;
	char curl_err[CURL_ERROR_SIZE];
	int fd; /* the file being uploaded */
};

static size_t on_body(char *p, size_t size, size_t n, void *ctx)
{
	struct buf *b = ctx;
	if (b->len < 65536)
		buf_append(b, p, size * n);
	return size * n;
}

static size_t on_read(char *p, size_t size, size_t n, void *ctx)
{
	struct s3 *s = ctx;
	ssize_t r;
	while ((r = read(s->fd, p, size * n)) < 0 && errno == EINTR)
		;
	return r < 0 ? CURL_READFUNC_ABORT : (size_t)r;
}

/* key_url: s->url made the object's address, its key URI-encoded */
static void key_url(struct s3 *s, const char *rel)
{
	buf_reset(&s->url);
	buf_puts(&s->url, s->base);
	struct buf key;
	buf_init(&key);
	buf_printf(&key, "%s%s", s->prefix, rel);
	for (size_t i = 0; i < key.len; i++) {
		unsigned char c = (unsigned char)key.p[i];
		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || strchr("-._~/", c))
			buf_putc(&s->url, c);
		else
			buf_printf(&s->url, "%%%02X", c);
	}
	buf_fini(&key);
	buf_putc(&s->url, '\0');
	s->url.len--;
}

/* xml_tag: the text of <tag> in the answer, or "" */
static const char *xml_tag(const struct buf *b, const char *tag, char *out, size_t n)
{
	char open[32], close[32];
	snprintf(open, sizeof open, "<%s>", tag);
	snprintf(close, sizeof close, "</%s>", tag);
	out[0] = '\0';
	const char *a = b->len ? memmem(b->p, b->len, open, strlen(open)) : NULL;
	const char *e = a ? memmem(a, (size_t)(b->p + b->len - a), close, strlen(close)) : NULL;
	if (a && e) {
		a += strlen(open);
		snprintf(out, n, "%.*s", (int)(e - a), a);
	}
	return out;
}

/* request: PUT (a file of the output) or DELETE of a's object. 0 when the
 * service said yes; else -1 after the error (*tried: whether the request
 * may have reached it). */
static int request(struct s3 *s, const struct deploy_ctx *c, const struct deploy_action *a, int *tried)
{
	int up = a->op == DEPLOY_UPLOAD;
	key_url(s, a->rel);
	*tried = 0;
	s->fd = up ? output_open(c->out_abs, a->rel) : -1;
	if (up && s->fd < 0) {
		deploy_error(s->d, NULL, "cannot read the output's %s: %s", a->rel, strerror(errno));
		return -1;
	}
	char ct[128], cc[128];
	snprintf(ct, sizeof ct, "Content-Type: %s", content_type(a->rel));
	snprintf(cc, sizeof cc, "Cache-Control: %s", deploy_cache_control(a->rel));
	struct curl_slist *hd = NULL;
	/* no "Expect:" here to drop curl's 100-continue: libcurl 7.88 signs
	 * the empty header it then does not send, and the service refuses
	 * the signature (CURLOPT_EXPECT_100_TIMEOUT_MS keeps the wait short) */
	hd = curl_slist_append(hd, "x-amz-content-sha256: UNSIGNED-PAYLOAD");
	if (up) {
		hd = curl_slist_append(hd, ct);
		hd = curl_slist_append(hd, cc);
	}
	struct buf tok;
	buf_init(&tok);
	if (s->cred.token[0]) {
		buf_printf(&tok, "x-amz-security-token: %s", s->cred.token);
		hd = curl_slist_append(hd, tok.p);
	}
	CURL *h = s->h;
	curl_easy_setopt(h, CURLOPT_URL, s->url.p);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hd);
	curl_easy_setopt(h, CURLOPT_UPLOAD, up ? 1L : 0L);
	curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, up ? NULL : "DELETE");
	curl_easy_setopt(h, CURLOPT_NOBODY, up ? 0L : 1L);
	if (up)
		curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)a->size);
	buf_reset(&s->body);
	s->curl_err[0] = '\0';
	CURLcode rc = curl_easy_perform(h);
	long status = 0;
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
	curl_slist_free_all(hd);
	buf_fini(&tok);
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	if (rc == CURLE_OK && status >= 200 && status < 300)
		return 0;
	/* a connection never made reached nothing */
	*tried = !(rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST || rc == CURLE_COULDNT_RESOLVE_PROXY);
	char code[128], msg[512], shown[600];
	snprintf(shown, sizeof shown, "%s", s->url.p);
	deploy_scrub(shown);
	if (rc != CURLE_OK) {
		deploy_error(s->d, shown, "cannot %s it: %s (hint: check deploy.s3.endpoint in folio.yml and the "
			     "network)", up ? "upload" : "delete", s->curl_err[0] ? s->curl_err : curl_easy_strerror(rc));
		return -1;
	}
	xml_tag(&s->body, "Code", code, sizeof code);
	xml_tag(&s->body, "Message", msg, sizeof msg);
	deploy_scrub(msg);
	const char *hint = status == 403 || status == 401
				   ? "check the credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or "
				     "~/.aws/credentials) and that they may write to the bucket"
			   : status == 404 ? "check deploy.s3.bucket and deploy.s3.endpoint, and that the bucket exists"
			   : status >= 500 ? "the service failed: deploy again later, and the next deploy does the rest"
					   : "see the service's message";
	deploy_error(s->d, shown, "cannot %s it: HTTP %ld%s%s%s%s (hint: %s)", up ? "upload" : "delete", status,
		     code[0] ? " " : "", code, msg[0] ? ": " : "", msg, hint);
	return -1;
}

int deploy_s3(struct deploy_ctx *c, const struct deploy_s3_target *t)
{
	struct s3 s;
	memset(&s, 0, sizeof s);
	s.d = c->d;
	s.fd = -1;
	if (creds(c->d, &s.cred) != 0)
		return -1;
	curl_global_init(CURL_GLOBAL_DEFAULT);
	s.h = curl_easy_init();
	if (!s.h) {
		deploy_error(c->d, NULL, "cannot start libcurl");
		return -1;
	}
	buf_init(&s.url);
	buf_init(&s.body);
	struct buf base;
	buf_init(&base);
	size_t el = strlen(t->endpoint);
	while (el && t->endpoint[el - 1] == '/')
		el--;
	buf_printf(&base, "%.*s/%s/", (int)el, t->endpoint, t->bucket);
	s.base = base.p;
	s.prefix = t->prefix;
	snprintf(s.sigv4, sizeof s.sigv4, "aws:amz:%s:s3", t->region);
	CURL *h = s.h;
	curl_easy_setopt(h, CURLOPT_AWS_SIGV4, s.sigv4);
	curl_easy_setopt(h, CURLOPT_EXPECT_100_TIMEOUT_MS, 200L);
	curl_easy_setopt(h, CURLOPT_USERNAME, s.cred.id);
	curl_easy_setopt(h, CURLOPT_PASSWORD, s.cred.secret);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "folio/" FOLIO_VERSION);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 15L);
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, 60L);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, s.curl_err);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &s.body);
	curl_easy_setopt(h, CURLOPT_READFUNCTION, on_read);
	curl_easy_setopt(h, CURLOPT_READDATA, &s);
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < c->plan->n; i++) {
		struct deploy_action *a = &c->plan->v[i];
		int tried;
		rc = request(&s, c, a, &tried);
		a->state = rc == 0 ? DEPLOY_DONE : tried ? DEPLOY_TRIED : DEPLOY_TODO;
	}
	curl_easy_cleanup(h);
	/* the secret is not left in memory longer than needed */
	memset(&s.cred, 0, sizeof s.cred);
	buf_fini(&s.url);
	buf_fini(&s.body);
	buf_fini(&base);
	return rc;
}
