/*
 * Field access for the Wycheproof JSON files, shared by every test that
 * reads them: a missing or mistyped field fails the test (the files are
 * trusted test data, so this is a broken file or a misread schema).
 * Include after <cmocka.h> and <cjson/cJSON.h>.
 */
#ifndef VOUCH_TEST_WP_JSON_H
#define VOUCH_TEST_WP_JSON_H

static inline const char *json_string(const cJSON *obj, const char *name)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, name);

	if (!cJSON_IsString(item))
		fail_msg("Wycheproof: missing string field '%s'", name);
	return item->valuestring;
}

static inline int json_int(const cJSON *obj, const char *name)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, name);

	if (!cJSON_IsNumber(item))
		fail_msg("Wycheproof: missing number field '%s'", name);
	return item->valueint;
}

#endif /* VOUCH_TEST_WP_JSON_H */
