DROP TABLE application_passwords;
DROP TABLE users;
