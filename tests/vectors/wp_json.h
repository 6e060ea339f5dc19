/*
 * Field access for the Wycheproof JSON files, shared by every test that
 * reads them: a missing or mistyped field fails the test (the files are
 * trusted test data, so this is a broken file or a misread schema).
 * Include after <cjson/cJSON.h>, and after <cmocka.h> unless WP_JSON_FAIL
 * is defined (plain programs define it to report and exit).
 */
#ifndef VOUCH_TEST_WP_JSON_H
#define VOUCH_TEST_WP_JSON_H

#ifndef WP_JSON_FAIL
#define WP_JSON_FAIL(...) fail_msg(__VA_ARGS__)
#endif

static inline const char *json_string(const cJSON *obj, const char *name)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, name);

	if (!cJSON_IsString(item))
		WP_JSON_FAIL("Wycheproof: missing string field '%s'", name);
	return item->valuestring;
}

static inline int json_int(const cJSON *obj, const char *name)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, name);

	if (!cJSON_IsNumber(item))
		WP_JSON_FAIL("Wycheproof: missing number field '%s'", name);
	return item->valueint;
}

#endif /* VOUCH_TEST_WP_JSON_H */
