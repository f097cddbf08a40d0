/*
 * zts-host: a small threaded PHP host on the ZTS libphp embed SAPI that reproduces the two ways
 * FrankenPHP runs PHP, so static_cache can be tested under them without FrankenPHP itself.
 *
 *   classic: N threads, each running a full request (RINIT..RSHUTDOWN) per "HTTP request";
 *   worker:  N threads, each running ONE long request (the worker script) that loops on
 *            static_cache_host_handle_request(callable); per HTTP request only the output layer and
 *            the SAPI are activated and deactivated, in FrankenPHP's order, each shutdown step in its
 *            own zend_try as there (the first call also ends the request the worker script started
 *            in, as FrankenPHP ends its "dummy" request). As there, max_execution_time runs per HTTP
 *            request (the timer is stopped while the worker waits for the next one and started again
 *            for each), an exception the handler leaves is reported and cleared before the end of its
 *            HTTP request (exit() ends the worker script there), and a worker script that ends before
 *            its HTTP requests are all handled (a fatal error or exit() ends the script) is started
 *            again on the same thread.
 *
 *   waves (-w W): the threads of a generation run in W waves, each of new threads started once the
 *            previous wave's have exited (FrankenPHP's autoscaling starts and stops PHP threads while the
 *            module runs); the threads of wave w are numbered from w * threads.
 *
 *   reload (-r R): the whole PHP lifecycle is run R + 1 times in one process, as FrankenPHP does on
 *            `caddy reload`: a new main thread runs TSRM, SAPI and module startup, the request threads
 *            of one generation, then module, SAPI and TSRM shutdown. After each generation the host
 *            counts the process's shared mappings, open descriptors and RSS; the last line of its
 *            output is a JSON object with those figures.
 *            With -S every generation runs on the process's own main thread instead, as an embedder
 *            that restarts PHP in the thread it started it from: what that thread keeps (thread-locals)
 *            outlives the generation, and its -f script runs in every generation.
 *
 * usage: zts-host [-t threads] [-n requests-per-thread] [-m classic|worker] [-s sapi-name] [-w waves]
 *                 [-r reloads [-S]] [-f final.php] [-d name=value]... script.php
 * -f runs one more request with final.php on the main thread after every thread has finished (to print
 * what the threads left in the cache); in reload mode, once per generation.
 * The SAPI name defaults to "frankenphp" (the name static_cache treats as FrankenPHP).
 * Scripts learn where they run from static_cache_host_request(): [thread, request], and what malloc
 * holds from static_cache_host_malloc().
 */
#include <php.h>
#include <php_main.h>
#include <php_output.h>
#include <php_variables.h>
#include <zend_exceptions.h>
#include <SAPI.h>
#include <TSRM.h>
#include <sapi/embed/php_embed.h>
#include <dirent.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int threads = 2, requests = 1, worker_mode = 0, reloads = -1, same_thread = 0, waves = 1;
static const char *script, *final_script, *sapi_name = "frankenphp";
static char *ini;

static __thread int cur_thread, cur_request, requests_left, dummy_ended, in_handler;

PHP_FUNCTION(static_cache_host_request)
{
	ZEND_PARSE_PARAMETERS_NONE();
	array_init(return_value);
	add_next_index_long(return_value, cur_thread);
	add_next_index_long(return_value, cur_request);
}

/* What glibc's malloc holds, summed over all its arenas (mallinfo2): "in_use" is the bytes of live
 * allocations (arena chunks in use plus chunks mmapped on their own), "held" the bytes it has from the
 * system (arenas plus mmapped chunks); held - in_use is free memory malloc keeps for later. Persistent
 * PHP allocations (pemalloc in ZTS) and Rust's allocations are malloc's; ZendMM's request heaps are
 * chunks mmapped by ZendMM itself and are not counted. With $trim, malloc_trim(0) first returns the free
 * pages of every arena to the system. */
PHP_FUNCTION(static_cache_host_malloc)
{
	bool trim = 0;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_BOOL(trim)
	ZEND_PARSE_PARAMETERS_END();
	if (trim) {
		malloc_trim(0);
	}
	struct mallinfo2 mi = mallinfo2();
	array_init(return_value);
	add_assoc_long(return_value, "in_use", (zend_long)(mi.uordblks + mi.hblkhd));
	add_assoc_long(return_value, "held", (zend_long)(mi.arena + mi.hblkhd));
	add_assoc_long(return_value, "mmapped", (zend_long)mi.hblkhd);
}

/* The end of an HTTP request in worker mode, in FrankenPHP's order (frankenphp_worker_request_shutdown):
 * output flushed and deactivated, then the SAPI deactivated, each step in its own zend_try (a bailout in
 * one does not end the worker script). No RSHUTDOWN. */
static void worker_request_shutdown(void)
{
	zend_try {
		php_output_end_all();
	} zend_end_try();
	zend_try {
		php_output_deactivate();
	} zend_end_try();
	zend_try {
		sapi_deactivate();
	} zend_end_try();
}

/* Worker mode: runs the handler for the next HTTP request; false when none are left. As FrankenPHP does,
 * the first call ends the "dummy" request the worker script started in, and each HTTP request is
 * output and SAPI activation, the handler, then worker_request_shutdown (no RINIT/RSHUTDOWN). */
PHP_FUNCTION(static_cache_host_handle_request)
{
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_FUNC(fci, fcc)
	ZEND_PARSE_PARAMETERS_END();
	/* Classic mode: false at once, so that one script serves both modes (FrankenPHP throws there). */
	if (!worker_mode) {
		RETURN_FALSE;
	}
	if (!dummy_ended) {
		dummy_ended = 1;
		worker_request_shutdown();
	}
	/* frankenphp_handle_request: no timeout while waiting for the next HTTP request. */
	zend_unset_timeout();
	if (requests_left <= 0) {
		RETURN_FALSE;
	}
	php_output_activate();
	sapi_activate();
	/* frankenphp_worker_request_startup (ZEND_MAX_EXECUTION_TIMERS): each HTTP request has its own. */
	zend_set_timeout(EG(timeout_seconds), 1);
	SG(headers_sent) = 1;
	SG(request_info).no_headers = 1;
	zval retval;
	fci.retval = &retval;
	/* An HTTP request is handled once, even when a fatal error ends the worker script inside it. */
	requests_left--;
	in_handler = 1;
	if (zend_call_function(&fci, &fcc) == SUCCESS) {
		zval_ptr_dtor(&retval);
	}
	/* As frankenphp_handle_request: an exception the handler left is reported (and cleared) before the
	 * end of the HTTP request; exit() ends the worker script. */
	if (EG(exception)) {
		if (!zend_is_unwind_exit(EG(exception)) && !zend_is_graceful_exit(EG(exception))) {
			zend_exception_error(EG(exception), E_ERROR);
		} else {
			zend_bailout();
		}
	}
	in_handler = 0;
	worker_request_shutdown();
	cur_request++;
	RETURN_TRUE;
}

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_host_request, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()
ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_handle_request, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, handler, IS_CALLABLE, 0)
ZEND_END_ARG_INFO()
ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_malloc, 0, 0, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, trim, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

static const zend_function_entry host_functions[] = {
	ZEND_FE(static_cache_host_request, arginfo_host_request)
	ZEND_FE(static_cache_host_handle_request, arginfo_handle_request)
	ZEND_FE(static_cache_host_malloc, arginfo_malloc)
	ZEND_FE_END
};

static int run_script(const char *path)
{
	zend_file_handle fh;
	int ok;
	SG(options) |= SAPI_OPTION_NO_CHDIR;
	if (php_request_startup() == FAILURE) {
		fprintf(stderr, "zts-host: request startup failed\n");
		return 1;
	}
	SG(headers_sent) = 1;
	SG(request_info).no_headers = 1;
	zend_stream_init_filename(&fh, path);
	ok = php_execute_script(&fh);
	zend_destroy_file_handle(&fh);
	php_request_shutdown(NULL);
	return ok ? 0 : 1;
}

static void *thread_main(void *arg)
{
	long failures = 0;
	cur_thread = (int)(intptr_t)arg;
	ts_resource(0);
	if (worker_mode) {
		requests_left = requests;
		cur_request = 0;
		/* FrankenPHP starts a worker script again when it ends with HTTP requests left to handle; one
		 * that handled none in its run is not started again (it would fail the same way for ever). */
		for (int before = -1; requests_left > 0 && requests_left != before;) {
			before = requests_left;
			dummy_ended = 0;
			in_handler = 0;
			failures += run_script(script);
			if (in_handler) {
				cur_request++;
			}
		}
	} else {
		for (cur_request = 0; cur_request < requests; cur_request++) {
			failures += run_script(script);
		}
	}
	ts_free_thread();
	return (void *)failures;
}

/* One generation of PHP in this process: startup, the request threads, the final script, shutdown. */
static void *generation_main(void *arg)
{
	long failures = 0;
	(void)arg;
	php_tsrm_startup();
	zend_signal_startup();
	sapi_startup(&php_embed_module);
	php_embed_module.name = (char *)sapi_name;
	php_embed_module.ini_entries = ini;
	php_embed_module.additional_functions = host_functions;
	php_embed_module.php_ini_ignore = 1;
	if (php_embed_module.startup(&php_embed_module) == FAILURE) {
		fprintf(stderr, "zts-host: module startup failed\n");
		return (void *)1;
	}

	pthread_t *tids = calloc(threads, sizeof(pthread_t));
	for (int w = 0; w < waves; w++) {
		for (int i = 0; i < threads; i++) {
			pthread_create(&tids[i], NULL, thread_main, (void *)(intptr_t)(w * threads + i));
		}
		for (int i = 0; i < threads; i++) {
			void *r;
			pthread_join(tids[i], &r);
			failures += (long)r;
		}
	}
	free(tids);
	if (final_script) {
		cur_thread = -1;
		failures += run_script(final_script);
	}
	php_module_shutdown();
	sapi_shutdown();
	tsrm_shutdown();
	return (void *)failures;
}

/* Writable shared mappings of this process: a leaked segment stays mapped (read-only shared files such
 * as glibc's gconv cache are mapped once and kept, and are not counted). */
static long shared_writable_mappings(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096], perms[8];
	long n = 0;
	while (f && fgets(line, sizeof line, f)) {
		if (sscanf(line, "%*s %7s", perms) == 1 && perms[1] == 'w' && perms[3] == 's') {
			n++;
		}
	}
	if (f) fclose(f);
	return n;
}

static long open_descriptors(void)
{
	DIR *d = opendir("/proc/self/fd");
	long n = 0;
	while (d && readdir(d)) {
		n++;
	}
	if (d) closedir(d);
	return n - 3; /* ".", ".." and the directory's own descriptor */
}

static long rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;
	while (f && fgets(line, sizeof line, f)) {
		if (sscanf(line, "VmRSS: %ld", &kb) == 1) {
			break;
		}
	}
	if (f) fclose(f);
	return kb;
}

int main(int argc, char **argv)
{
	size_t ini_len = 0, ini_cap = 4096;
	int opt;
	ini = malloc(ini_cap);
	ini[0] = '\0';
	while ((opt = getopt(argc, argv, "t:n:m:s:f:d:r:w:S")) != -1) {
		switch (opt) {
		case 't': threads = atoi(optarg); break;
		case 'n': requests = atoi(optarg); break;
		case 'm': worker_mode = strcmp(optarg, "worker") == 0; break;
		case 's': sapi_name = optarg; break;
		case 'f': final_script = optarg; break;
		case 'r': reloads = atoi(optarg); break;
		case 'S': same_thread = 1; break;
		case 'w': waves = atoi(optarg); break;
		case 'd': {
			size_t n = strlen(optarg);
			while (ini_len + n + 2 > ini_cap) ini = realloc(ini, ini_cap *= 2);
			memcpy(ini + ini_len, optarg, n);
			ini_len += n;
			ini[ini_len++] = '\n';
			ini[ini_len] = '\0';
			break;
		}
		default:
			fprintf(stderr, "usage: %s [-t threads] [-n requests] [-m classic|worker] [-s sapi] [-w waves] [-r reloads [-S]] [-d k=v]... script\n", argv[0]);
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "zts-host: no script\n");
		return 2;
	}
	script = argv[optind];

	long failures = 0;
	if (reloads < 0) {
		failures = (long)generation_main(NULL);
		free(ini);
		return failures ? 1 : 0;
	}
	long maps_before = shared_writable_mappings(), fds_before = open_descriptors();
	long maps_max = 0, fds_max = 0, rss_first = 0, rss_tenth = 0, rss_last = 0;
	for (int g = 0; g <= reloads; g++) {
		pthread_t main_thread;
		void *r;
		if (same_thread) {
			r = generation_main(NULL);
		} else {
			pthread_create(&main_thread, NULL, generation_main, NULL);
			pthread_join(main_thread, &r);
		}
		failures += (long)r;
		long maps = shared_writable_mappings() - maps_before, fds = open_descriptors() - fds_before;
		maps_max = maps > maps_max ? maps : maps_max;
		fds_max = fds > fds_max ? fds : fds_max;
		rss_last = rss_kb();
		if (g == 0) rss_first = rss_last;
		if (g == 9 || (g < 9 && g == reloads)) rss_tenth = rss_last;
	}
	fflush(stdout);
	printf("\n{\"generations\":%d,\"failures\":%ld,\"shared_mappings_left_max\":%ld,\"descriptors_left_max\":%ld,"
		"\"rss_first_kb\":%ld,\"rss_tenth_kb\":%ld,\"rss_last_kb\":%ld}\n",
		reloads + 1, failures, maps_max, fds_max, rss_first, rss_tenth, rss_last);
	free(ini);
	return failures ? 1 : 0;
}
