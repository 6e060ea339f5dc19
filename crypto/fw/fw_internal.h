/*
 * What the files of crypto/fw share: the policy's layout, the one
 * signature parser, the audit line, and the reader of firmware files.
 */
#ifndef VOUCH_FW_INTERNAL_H
#define VOUCH_FW_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <vouch/fw.h>
#include <vouch/keyring.h>
#include <vouch/pkcs7.h>

#define FW_MAX_RULES 64
#define FW_MAX_GLOBS 16
/* Signer names a block may allow (signer-cn). */
#define FW_MAX_SIGNER_CNS 8
#define FW_MAX_ENTRIES 65536
#define FW_MAX_SIZE_LIMIT ((size_t)2 << 30)
#define FW_DEFAULT_MAX_SIZE ((size_t)64 << 20)
#define FW_MAX_SIG_SIZE ((size_t)1 << 20)

/* A rule block: names matching a glob get these settings. */
struct fw_rule {
	char *label;                 /* "FILE:LINE: match ..." or "default" */
	char *globs[FW_MAX_GLOBS];
	size_t glob_count;           /* 0 only for the default block */
	int sig_form;                /* enum vouch_fw_sig_form */
	size_t max_size;
	unsigned hashes;             /* VOUCH_FW_HASH_* */
	unsigned sigalgs;            /* VOUCH_FW_SIGALG_* */
	int purpose;                 /* enum vouch_verify_purpose */
	int usage;                   /* enum vouch_verify_usage, or FW_USAGE_AUTO */
	int mldsa_module_attrs;      /* 1: VOUCH_VERIFY_MLDSA_MODULE_ATTRS */
	unsigned compression;        /* VOUCH_FW_COMPRESS_*: NAME.zst, NAME.xz looked for */
	unsigned crl_flags;          /* 0, VOUCH_VERIFY_NO_CRL or VOUCH_VERIFY_CRL_CHECK[_LEAF] */
	const char *signer_cns[FW_MAX_SIGNER_CNS];  /* into the policy's names */
	size_t signer_cn_count;
};

/* A rule's usage when none was set: firmware for detached, module for appended. */
#define FW_USAGE_AUTO (-1)

/* An allow- or deny-list entry. */
struct fw_entry {
	const struct vouch_hash_alg *alg;
	uint8_t digest[VOUCH_SHA384_LEN];
	char *name;                  /* a glob, or NULL for any name */
	char *label;
};

struct fw_list {
	struct fw_entry *v;
	size_t n, cap;
};

struct vouch_fw_policy {
	int finished;                /* immutable from here on */
	int broken;                  /* a file had an error: never finish */
	int mode;
	struct vouch_keyring *kr;
	struct fw_rule rules[FW_MAX_RULES + 1];  /* [0]: the default block */
	size_t rule_count;
	struct fw_list allow, deny;
	int need_sha384;             /* an entry uses SHA-384 */
	char *root, *path, *release;
	char **names;                /* signer names the rules point into, owned */
	size_t name_count;
	int audit;
	vouch_fw_audit_fn *audit_fn;
	void *audit_ctx;
	struct vouch_sandbox *sandbox;  /* NULL: parse in process */
	int sandbox_chosen;          /* vouch_fw_policy_set_sandbox() was called */
	int sandbox_owned;           /* made by finish(), freed with the policy */
};

/* A parsed signature and the DER it points into (decoded from PEM or not). */
struct fw_sig {
	struct vouch_pkcs7 *msg;
	uint8_t *der_owned;          /* PEM's DER, freed with the message */
};

/*
 * The one place crypto/fw parses PKCS#7: in the policy's sandbox, or in
 * process if the caller chose so. PEM is decoded first.
 */
int vouch_fw_parse_signature(const struct vouch_fw_policy *p, const uint8_t *sig, size_t len,
			     struct fw_sig *out);
void vouch_fw_sig_free(struct fw_sig *s);

/* The block whose glob matches name, else the default block. */
const struct fw_rule *vouch_fw_rule_for(const struct vouch_fw_policy *p, const char *name);

/* Send the decision's audit line where the policy says. */
void vouch_fw_audit_emit(const struct vouch_fw_policy *p, const char *name,
			 const struct vouch_fw_result *res);

#ifdef VOUCH_TEST_SEAMS
/* Tests set this to take the path kernels without openat2(2) take (the
 * test build of the library only). */
extern int vouch_fw_no_openat2;
#endif

/* The errno's name ("EPERM"), "0" for 0. */
const char *vouch_fw_errno_name(int rc);

#endif /* VOUCH_FW_INTERNAL_H */
